package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * A snapshot across the hosts of a cluster (docs/durability.md, "On a
 * cluster"): three real {@code partita start --cluster} processes, K = 1,
 * two sites each, sync command logs, KV writes sent to every host while
 * {@code @SnapshotSave} runs, called on each host in turn (the
 * coordinator's host runs it, the others forward it there); a path is
 * refused; each call answers once every host wrote its part: each host's
 * {@code @SnapshotStatus} says DONE for that snapshot, and for each of the
 * three partitions its two copies' parts, on two hosts, name the same cut
 * and have the same size and CRC32C. After more writes every host is
 * killed with SIGKILL and started again with {@code --recover}: each says it
 * loaded the snapshot, every acknowledged write reads back, both copies of
 * each partition hold the same rows, and the cluster takes a write. Every
 * process is stopped by its handle.
 */
@Timeout(600)
class ClusterSnapshotTest {
  private static final int HOSTS = 3;
  private static final int PARTITIONS = 3;

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();
  private final java.util.Set<String> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private String cluster;

  @AfterEach
  void stopEverything() throws Exception {
    for (PartitaClient client : clients) {
      client.close();
    }
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  @Test
  void shouldCutEveryCopyAtTheSameItemAndWriteEachHostsPart() throws Exception {
    cluster = ClusterTest.clusterList(HOSTS, ClusterTest.freeClusterPort(HOSTS));
    for (int i = 0; i < HOSTS; i++) {
      hosts.add(ServerProcess.launch(hostArgs(i), dir.resolve("host" + i + ".log")));
    }
    final PartitaClient client = client("cluster-snapshot-test", true);
    for (ServerProcess host : hosts) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      client.connect(host.address());
    }
    final AtomicBoolean writing = new AtomicBoolean(true);
    final Thread writer = new Thread(() -> write(client, writing), "cluster-snapshot-writes");
    writer.start();
    final String name;
    try {
      waitFor(() -> acknowledged.size() >= 200, "200 writes acknowledged");
      name = saveOnEveryHost();
      checkCopiesAgree(name);
      final int before = acknowledged.size();
      waitFor(() -> acknowledged.size() >= before + 300, "writes go on after the snapshot");
      for (ServerProcess host : hosts) {
        host.kill();
      }
    } finally {
      writing.set(false);
      writer.join(TimeUnit.SECONDS.toMillis(120));
    }
    assertFalse(writer.isAlive(), "the writer stopped");
    recover(name);
  }

  /**
   * Starts every host with --recover: each says it loaded the snapshot, every acknowledged write reads back,
   * both copies of each partition hold the same rows, and the cluster takes a write.
   */
  private void recover(String name) throws Exception {
    final List<ServerProcess> recovered = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      final List<String> args = new ArrayList<>(hostArgs(i));
      args.add("--recover");
      recovered.add(ServerProcess.launch(args, dir.resolve("host" + i + "-recovered.log")));
    }
    hosts.addAll(recovered);
    final PartitaClient client = client("cluster-snapshot-recovered", true);
    for (ServerProcess host : recovered) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      assertTrue(host.output().contains("recovery: loaded snapshot " + name), host::output);
      client.connect(host.address());
    }
    assertReadBack(client, acknowledged, ClusterSnapshotTest::value);
    ClusterRecoveryTest.assertCopiesEqual(recovered, clients, PARTITIONS);
    final ClientResponse after = client.callAsync("Put", "after", "after".getBytes(StandardCharsets.UTF_8))
        .get(120, TimeUnit.SECONDS);
    assertTrue(after.ok(), after.message());
    System.out.println("cluster snapshot recovery: " + acknowledged.size() + " acknowledged write(s) read back");
  }

  /**
   * Calls @SnapshotSave on every host in turn (the coordinator's runs it, the others forward it there): each
   * answers DONE with every partition's cut; returns the last snapshot's name.
   */
  private String saveOnEveryHost() throws Exception {
    String name = null;
    for (int i = 0; i < HOSTS; i++) {
      final PartitaClient one = client("cluster-snapshot-host-" + i, false);
      one.connect(hosts.get(i).address());
      final ClientResponse answer = one.callAsync("@SnapshotSave").get(300, TimeUnit.SECONDS);
      assertTrue(answer.ok(), "host " + i + ": " + answer.message());
      final ResultTable row = answer.results().get(0);
      assertTrue(row.advanceRow());
      assertEquals("DONE", row.getString(0));
      final String cut = row.getString(5);
      for (int p = 0; p < PARTITIONS; p++) {
        assertTrue(cut.contains("p" + p + "="), cut);
      }
      final String taken = Path.of(row.getString(1)).getFileName().toString();
      assertTrue(name == null || taken.compareTo(name) > 0, taken + " after " + name);
      name = taken;
      final ClientResponse withPath = one.callAsync("@SnapshotSave", dir.resolve("elsewhere").toString())
          .get(60, TimeUnit.SECONDS);
      assertFalse(withPath.ok());
      assertTrue(withPath.message().contains("takes no path"), withPath.message());
    }
    return name;
  }

  /** Each host's part is DONE; each partition's two copies cut at the same item and wrote the same bytes. */
  private void checkCopiesAgree(String name) throws Exception {
    final Map<Integer, List<String>> parts = new TreeMap<>();
    for (int i = 0; i < HOSTS; i++) {
      final PartitaClient one = client("cluster-snapshot-status-" + i, false);
      one.connect(hosts.get(i).address());
      final ClientResponse status = one.callAsync("@SnapshotStatus").get(60, TimeUnit.SECONDS);
      assertTrue(status.ok(), status.message());
      final ResultTable row = status.results().get(0);
      assertTrue(row.advanceRow());
      assertEquals("DONE", row.getString(0), "host " + i + "'s part");
      assertTrue(row.getString(1).endsWith(name), row.getString(1));
      final Path snapshot = dataDir(i).resolve("snapshots").resolve(name);
      final String manifest = Files.readString(snapshot.resolve("MANIFEST"), StandardCharsets.UTF_8);
      assertTrue(manifest.contains("\ncopies "), manifest);
      for (String line : manifest.split("\n")) {
        if (line.startsWith("file partition-")) {
          final String[] f = line.split(" ");
          final int p = Integer.parseInt(f[1].substring("partition-".length(), f[1].indexOf('.')));
          parts.computeIfAbsent(p, k -> new ArrayList<>()).add(cutOf(manifest, p) + " " + f[2] + " " + f[3]);
        }
      }
    }
    assertEquals(PARTITIONS, parts.size(), parts::toString);
    for (Map.Entry<Integer, List<String>> part : parts.entrySet()) {
      assertEquals(2, part.getValue().size(), "partition " + part.getKey() + " has a part on both its copies' hosts");
      assertEquals(part.getValue().get(0), part.getValue().get(1), "partition " + part.getKey()
          + ": both copies cut at the same item and wrote the same bytes (cut, size, CRC32C)");
    }
    System.out.println("cluster snapshot " + name + ": " + parts);
  }

  private static String cutOf(String manifest, int partition) {
    for (String line : manifest.split("\n")) {
      if (line.startsWith("cut " + partition + " ")) {
        return line.substring(("cut " + partition + " ").length());
      }
    }
    throw new AssertionError("no cut of partition " + partition + " in\n" + manifest);
  }

  /** Puts with at most 64 in flight until told to stop, each acknowledged key kept. */
  private void write(PartitaClient client, AtomicBoolean writing) {
    writeUntilStopped(client, writing, acknowledged, ClusterSnapshotTest::value);
  }

  private static byte[] value(String key) {
    return (key + "-value").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Puts {@code key0, key1, ...} with {@code value(key)}, at most 64 in
   * flight, until {@code writing} is false; adds each acknowledged key to
   * {@code acknowledged}.
   */
  static void writeUntilStopped(PartitaClient client, AtomicBoolean writing, java.util.Set<String> acknowledged,
      java.util.function.Function<String, byte[]> value) {
    final Semaphore inFlight = new Semaphore(64);
    long n = 0;
    try {
      while (writing.get()) {
        inFlight.acquire();
        final String key = "key" + n++;
        client.callAsync("Put", key, value.apply(key)).whenComplete((answer, error) -> {
          if (error == null && answer.ok()) {
            acknowledged.add(key);
          }
          inFlight.release();
        });
      }
      inFlight.tryAcquire(64, 120, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Every key of {@code acknowledged} reads back with {@code value(key)}. */
  static void assertReadBack(PartitaClient client, java.util.Set<String> acknowledged,
      java.util.function.Function<String, byte[]> value) throws Exception {
    final Semaphore inFlight = new Semaphore(64);
    final Map<String, java.util.concurrent.CompletableFuture<ClientResponse>> reads = new TreeMap<>();
    for (String key : acknowledged) {
      inFlight.acquire();
      reads.put(key, client.callAsync("Get", key).whenComplete((a, e) -> inFlight.release()));
    }
    for (Map.Entry<String, java.util.concurrent.CompletableFuture<ClientResponse>> read : reads.entrySet()) {
      final ClientResponse answer = read.getValue().get(120, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
      final ResultTable row = answer.results().get(0);
      assertTrue(row.advanceRow(), read.getKey() + " was acknowledged before the kill: it survives the restart");
      assertTrue(java.util.Arrays.equals(value.apply(read.getKey()), row.getBytes(0)), read.getKey() + "'s value");
    }
  }

  private static void waitFor(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 300 s: " + what);
      }
      Thread.sleep(50);
    }
  }

  private PartitaClient client(String name, boolean discover) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName(name)
        .callTimeout(Duration.ofSeconds(300)).discoverHosts(discover).build());
    clients.add(client);
    return client;
  }

  private Path dataDir(int host) {
    return dir.resolve("host" + host);
  }

  private List<String> hostArgs(int host) {
    return ClusterRecoveryTest.kvHostArgs(cluster, host, dataDir(host));
  }
}
