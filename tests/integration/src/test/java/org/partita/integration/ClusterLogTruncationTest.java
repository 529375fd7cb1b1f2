package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * Automatic snapshots and log truncation on a cluster (docs/durability.md,
 * "Log truncation on a cluster"): three real hosts, K = 1, two sites each,
 * sync logs of 1 MB segments and {@code --snapshot-log-size 1}; KV writes of
 * 1 KB sent to every host until every host took snapshots by itself, marked
 * at least one complete on every host, and deleted its first log segments;
 * then every host is killed with SIGKILL and started with {@code --recover}:
 * each loads a snapshot, every acknowledged write reads back, both copies of
 * each partition hold the same rows, and the cluster takes a write. Also: a
 * cluster killed before any record reached its logs recovers, empty, rather
 * than being refused. Every wait is for observable state, bounded in time.
 */
@Timeout(900)
class ClusterLogTruncationTest {
  private static final int HOSTS = 3;
  private static final int PARTITIONS = 3;
  private static final byte[] PADDING = new byte[1000];

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
  void shouldSnapshotByItselfTruncateEveryHostsLogAndRecoverEveryAcknowledgedWrite() throws Exception {
    final List<ServerProcess> first = startAll("", false);
    final PartitaClient client = connected("cluster-truncation-test", first);
    final AtomicBoolean writing = new AtomicBoolean(true);
    final Thread writer = new Thread(() -> ClusterSnapshotTest.writeUntilStopped(client, writing, acknowledged,
        ClusterLogTruncationTest::value), "cluster-truncation-writes");
    writer.start();
    try {
      waitFor(this::everyHostTruncated, "every host took snapshots by itself and truncated its log", first);
      for (ServerProcess host : first) {
        host.kill();
      }
    } finally {
      writing.set(false);
      writer.join(TimeUnit.SECONDS.toMillis(120));
    }
    assertFalse(writer.isAlive(), "the writer stopped");
    assertTrue(first.stream().anyMatch(p -> p.output().contains("asking for one across the hosts")),
        "the snapshots were automatic (the test asks for none)");
    for (ServerProcess host : first) {
      assertTrue(host.output().contains("truncated up to snapshot"), host::output);
    }
    final List<ServerProcess> recovered = startAll("-recovered", true);
    final PartitaClient after = connected("cluster-truncation-recovered", recovered);
    for (ServerProcess host : recovered) {
      assertTrue(host.output().contains("recovery: loaded snapshot "), host::output);
    }
    ClusterSnapshotTest.assertReadBack(after, acknowledged, ClusterLogTruncationTest::value);
    ClusterRecoveryTest.assertCopiesEqual(recovered, clients, PARTITIONS);
    final ClientResponse put = after.callAsync("Put", "after", bytes("after")).get(120, TimeUnit.SECONDS);
    assertTrue(put.ok(), put.message());
    System.out.println("cluster log truncation: " + acknowledged.size() + " acknowledged write(s) read back");
  }

  @Test
  void shouldRecoverHostsWhoseLogsHoldNoRecord() throws Exception {
    final List<ServerProcess> first = startAll("", false);
    for (ServerProcess host : first) {
      host.kill();
    }
    for (int i = 0; i < HOSTS; i++) {
      try (Stream<Path> segments = Files.list(dataDir(i).resolve("commandlog"))) {
        assertTrue(segments.noneMatch(p -> p.getFileName().toString().endsWith(".log")),
            "host " + i + "'s log took no segment: no record reached it");
      }
    }
    final List<ServerProcess> recovered = startAll("-recovered", true);
    final PartitaClient client = connected("cluster-empty-recovered", recovered);
    for (ServerProcess host : recovered) {
      assertTrue(host.output().contains("holds no record"), host::output);
    }
    final ClientResponse put = client.callAsync("Put", "first", bytes("first")).get(120, TimeUnit.SECONDS);
    assertTrue(put.ok(), put.message());
    final ClientResponse get = client.callAsync("Get", "first").get(120, TimeUnit.SECONDS);
    assertTrue(get.ok() && get.results().get(0).advanceRow(), get.message());
  }

  /** Launches every host (with --recover when {@code recover}) and waits for each ready line. */
  private List<ServerProcess> startAll(String suffix, boolean recover) throws Exception {
    if (cluster == null) {
      cluster = ClusterTest.clusterList(HOSTS, ClusterTest.freeClusterPort(HOSTS));
    }
    final List<ServerProcess> started = new ArrayList<>();
    for (int i = 0; i < HOSTS; i++) {
      final List<String> args = new ArrayList<>(ClusterRecoveryTest.kvHostArgs(cluster, i, dataDir(i)));
      args.addAll(List.of("--log-segment-mb", "1", "--snapshot-log-size", "1"));
      if (recover) {
        args.add("--recover");
      }
      started.add(ServerProcess.launch(args, dir.resolve("host" + i + suffix + ".log")));
    }
    hosts.addAll(started);
    for (ServerProcess host : started) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
    }
    return started;
  }

  private PartitaClient connected(String name, List<ServerProcess> to) throws Exception {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName(name)
        .callTimeout(Duration.ofSeconds(300)).build());
    clients.add(client);
    for (ServerProcess host : to) {
      client.connect(host.address());
    }
    return client;
  }

  /**
   * True once every host's log lost its first segment to a truncation (its
   * mark is there) and the host holds a snapshot part marked complete on
   * every host.
   */
  private boolean everyHostTruncated() {
    for (int i = 0; i < HOSTS; i++) {
      final Path log = dataDir(i).resolve("commandlog");
      if (!Files.exists(log.resolve("TRUNCATED")) || Files.exists(log.resolve("segment-0000000001.log"))) {
        return false;
      }
      try (Stream<Path> parts = Files.list(dataDir(i).resolve("snapshots"))) {
        if (parts.noneMatch(p -> Files.exists(p.resolve("EVERY-HOST")))) {
          return false;
        }
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  private static byte[] value(String key) {
    final byte[] head = bytes(key + "-value-");
    return Arrays.copyOf(head, head.length + PADDING.length);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Waits up to 600 s for {@code condition}, checking every 100 ms; fails with every host's output. */
  private static void waitFor(java.util.function.BooleanSupplier condition, String what,
      List<ServerProcess> processes) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(600);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        final StringBuilder out = new StringBuilder("not within 600 s: " + what);
        for (ServerProcess p : processes) {
          out.append("\n---\n").append(p.output());
        }
        throw new AssertionError(out.toString());
      }
      Thread.sleep(100);
    }
  }

  private Path dataDir(int host) {
    return dir.resolve("host" + host);
  }
}
