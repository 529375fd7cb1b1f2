package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.proto.txn.WorkItem;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.durability.CommandLogRecovery;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnId;

/**
 * Every copy logs (docs/durability.md, "On a cluster"): three real
 * {@code partita start --cluster} processes, K = 1, two sites each, each
 * host's command log in sync mode under the power-cut shim
 * (tests/fault/powercut). Under a firehose of KV writes sent to every host,
 * every host is killed with SIGKILL and then loses power (the unsynced
 * writes to its log are dropped). Every write a client saw acknowledged is
 * then in the command log of both hosts that hold its partition, under the
 * same transaction id: the leader answered only once its own record was
 * synced and its replica acknowledged, which the replica did only once the
 * item was on its disk. A host started again on its data directory without
 * {@code --recover} is refused with the reason (ClusterRecoveryTest
 * restarts the whole cluster from its logs), and a host started on another host's directory is refused naming whose
 * it is.
 * Every process is stopped by its handle.
 */
@Timeout(300)
class ClusterCommandLogTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");
  private static final int HOSTS = 3;
  private static final int PARTITIONS = 3;

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private PartitaClient client;

  @AfterEach
  void stopEverything() throws Exception {
    if (client != null) {
      client.close();
    }
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  @Test
  void shouldKeepEveryAcknowledgedWriteOnTheDiskOfBothCopiesThroughAPowerCutOfEveryHost() throws Exception {
    final String cluster = ClusterTest.clusterList(HOSTS, ClusterTest.freeClusterPort(HOSTS));
    final List<PowerCut> cuts = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      final PowerCut cut = new PowerCut(dataDir(i).resolve("commandlog"), dir.resolve("journal-" + i));
      cuts.add(cut);
      hosts.add(ServerProcess.launch(hostArgs(cluster, i), dir.resolve("host" + i + ".log"), cut.environment()));
    }
    final List<String> addresses = new ArrayList<>();
    for (ServerProcess host : hosts) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      assertTrue(host.output().contains("command log sync"), host::output);
      final java.util.regex.Matcher ready = java.util.regex.Pattern
          .compile("partita: ready: client port ([0-9.]+):(\\d+)").matcher(host.output());
      assertTrue(ready.find());
      addresses.add(ready.group(1) + ":" + ready.group(2));
    }
    client = new PartitaClient(ClientConfig.builder().clientName("cluster-log-test")
        .callTimeout(Duration.ofSeconds(20)).build());
    addresses.forEach(client::connect);

    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    final Semaphore inFlight = new Semaphore(64);
    final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    long n = 0;
    while (System.nanoTime() < until || acknowledged.size() < 100) {
      inFlight.acquire();
      final String key = "logged" + n++;
      client.callAsync("Put", key, key.getBytes(StandardCharsets.UTF_8)).whenComplete((answer, error) -> {
        if (error == null && answer.ok()) {
          acknowledged.add(key);
        }
        inFlight.release();
      });
      if (n > 1_000_000) {
        throw new AssertionError("fewer than 100 writes acknowledged after a million sent");
      }
    }
    // Calls still in flight: every host dies under them.
    final Set<String> seen = Set.copyOf(acknowledged);
    for (ServerProcess host : hosts) {
      host.kill();
    }
    for (PowerCut cut : cuts) {
      cut.cut();
    }

    final int fingerprint = fingerprint();
    final List<Map<String, TxnId>> logs = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      logs.add(putsIn(dataDir(i), fingerprint));
    }
    int onBoth = 0;
    for (String key : seen) {
      final List<TxnId> copies = new ArrayList<>();
      for (Map<String, TxnId> log : logs) {
        if (log.containsKey(key)) {
          copies.add(log.get(key));
        }
      }
      assertEquals(2, copies.size(), key + " was acknowledged: it is in the log of both copies of its partition");
      assertEquals(copies.get(0), copies.get(1), key + ": the same transaction on both copies");
      onBoth++;
    }
    System.out.printf("cluster command log: %d acknowledged write(s), each on the disk of both its copies after a"
        + " power cut of every host%n", onBoth);

    final ServerProcess again = ServerProcess.launch(hostArgs(cluster, 0), dir.resolve("again.log"));
    hosts.add(again);
    assertEquals(1, again.awaitExit(120), again::output);
    assertTrue(again.output().contains("holds a command log from an earlier run of a cluster host"), again::output);

    // Host 1 on host 0's directory: refused before anything in it is read, naming whose it is.
    final List<String> stranger = new ArrayList<>(hostArgs(cluster, 1));
    stranger.set(stranger.indexOf(dataDir(1).toString()), dataDir(0).toString());
    final ServerProcess wrongHost = ServerProcess.launch(stranger, dir.resolve("wrong-host.log"));
    hosts.add(wrongHost);
    assertEquals(1, wrongHost.awaitExit(120), wrongHost::output);
    assertTrue(wrongHost.output().contains(dataDir(0) + " belongs to host 0 of this cluster, not to host 1"),
        wrongHost::output);
  }

  private Path dataDir(int host) {
    return dir.resolve("host" + host);
  }

  private List<String> hostArgs(String cluster, int host) {
    return List.of("--schema", KV_DDL.toString(), "--cluster", cluster, "--host-id", Integer.toString(host),
        "--bind", "127.0.0." + (host + 1), "--port", "0", "--http-port", "-1", "--data-dir",
        dataDir(host).toString(), "--sites-per-host", "2", "--kfactor", "1", "--join-timeout", "120s",
        "--command-log", "sync");
  }

  /** Each Put the host's log holds: its key and the transaction it ran as. */
  private static Map<String, TxnId> putsIn(Path dataDir, int fingerprint) throws Exception {
    final Map<String, TxnId> puts = new HashMap<>();
    CommandLogRecovery.read(dataDir, PARTITIONS, fingerprint, item -> {
      if (!item.hasSinglePartition()) {
        return;
      }
      try {
        final Invocation call = Invocation.fromProto(item.getSinglePartition());
        if (call.procedure().equals("Put")) {
          puts.put((String) call.parameters()[0], id(item));
        }
      } catch (Exception e) {
        throw new AssertionError("a record of " + dataDir + " does not decode: " + e, e);
      }
    });
    return puts;
  }

  private static TxnId id(WorkItem item) {
    return new TxnId(item.getHeader().getPartition(), item.getHeader().getEpoch(), item.getHeader().getSequence());
  }

  /** The fingerprint every host's log carries: CRC32C of the KV schema's engine catalog. */
  private static int fingerprint() throws Exception {
    final CompiledCatalog catalog = new CatalogCompiler(ClusterCommandLogTest.class.getClassLoader())
        .compile(List.of(new SourceFile(KV_DDL.toString(), Files.readString(KV_DDL))));
    final CRC32C crc = new CRC32C();
    crc.update(catalog.engineCatalog().toByteArray());
    return (int) crc.getValue();
  }
}
