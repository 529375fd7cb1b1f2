package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Leader rebalancing on 3 real hosts on 127.0.0.1–3, K = 1, 2 sites each
 * (docs/cluster.md, "Leader rebalancing"), under a firehose of
 * single-partition writes: a host that led a partition is killed, its
 * partition fails over to its other copy (whose host then leads two), and
 * the host is restarted with {@code --rejoin}. Once it holds its copies again
 * and the map stayed the same for the delay (1 s here), the host leading two
 * hands one of them back: every host leads one partition again, no call
 * sent after the restart fails (the calls that reached the old leader while
 * it handed over are answered NOT_LEADER under the new map and sent again to
 * the new leader by the client), the old leader's copy follows the new one
 * without stopping or being dropped, every acknowledged write is read back,
 * and every partition's two copies agree by {@code @Statistics CHECKSUM}.
 */
@Timeout(300)
class LeaderRebalanceTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed test keeps its hosts' logs
  Path dir;

  private ClusterProcesses cluster;

  @BeforeEach
  void openCluster() {
    cluster = new ClusterProcesses(dir, "rebalance-test");
  }

  @AfterEach
  void stopEverything() throws Exception {
    cluster.close();
  }

  @Test
  void shouldHandLeadershipBackToARejoinedHostUnderLoadWithoutFailingACall() throws Exception {
    cluster.start(3, 1, 2, KV_DDL, "--leader-rebalance-delay", "1s");
    final int victim = (cluster.metadataLeader() + 1) % 3;
    final PartitaClient all = cluster.client(true, cluster.addresses.toArray(new String[0]));
    final String probe = cluster.keyLedBy(victim);
    assertEquals(List.of(1, 1, 1), leaderCounts(all), "the formation spreads the leaders");
    final FailoverTest.Firehose load = new FailoverTest.Firehose(all);
    load.start();
    awaitAcknowledged(load, 0);

    final long killed = System.nanoTime();
    cluster.hosts.get(victim).kill();
    FailoverTest.firstSuccess(all, probe, killed);
    // Hosts follow the new map some milliseconds apart: the one the read reaches may not have yet.
    final List<Integer> afterFailover = awaitLeaderCounts(all, counts -> counts.get(victim) == 0);
    assertEquals(0, afterFailover.get(victim), "the killed host leads nothing: " + afterFailover);

    final long restarted = System.nanoTime();
    cluster.rejoin(victim);
    final List<Integer> balanced = awaitLeaderCounts(all, List.of(1, 1, 1)::equals);
    assertEquals(List.of(1, 1, 1), balanced, () -> "every host leads one partition again:\n" + logs());
    System.out.printf("rebalance: host %d restarted; every host leads one partition again %.2f s later%n", victim,
        (System.nanoTime() - restarted) / 1e9);
    // The map moves before the host that handed over logs it.
    final long logDeadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!logs().contains("leader rebalancing: partition") && System.nanoTime() < logDeadline) {
      Thread.sleep(20);
    }
    assertTrue(logs().contains("leader rebalancing: partition"), () -> "a host logged its hand-off:\n" + logs());

    final long rebalancedAt = System.nanoTime();
    awaitAcknowledged(load, rebalancedAt);
    FailoverTest.stopAndReadBack(load, all, rebalancedAt);
    // Calls sent before (the kill's OUTCOME_UNKNOWN ones, sent again in the client session) may end unknown.
    final Map<String, String> failed = load.failedSentAfter(restarted);
    assertTrue(failed.isEmpty(), () -> failed.size() + " call(s) sent after the restart failed, e.g. "
        + failed.entrySet().stream().limit(5).toList() + "\n" + logs());
    // The old leader's copy follows the new leader: it never stops on a hash of its own nor gets dropped (a copy
    // that ran its new leader's items through its old, deposed pipeline did, and came back by rejoin).
    assertFalse(logs().matches("(?s).*this copy \\(host \\d+\\) stopped.*"), () -> "a copy stopped:\n" + logs());
    assertFalse(logs().contains("to drop replica host"), () -> "a replica was dropped:\n" + logs());
    final Map<Integer, List<Long>> checksums = cluster.checksums(List.of(0, 1, 2));
    assertEquals(3, checksums.size(), "every partition has copies: " + checksums);
    for (Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      assertEquals(2, copies.getValue().size(), "partition " + copies.getKey() + ": " + checksums);
      assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey());
    }
  }

  /** Waits (at most 30 s) until the firehose had a write acknowledged after {@code since}. */
  private static void awaitAcknowledged(FailoverTest.Firehose load, long since) throws InterruptedException {
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (load.acknowledgedAfter(since) == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(load.acknowledgedAfter(since) > 0, "writes were acknowledged");
  }

  /** Polls the hosts' leader counts (at most 60 s) until {@code wanted} holds; returns the last seen. */
  private static List<Integer> awaitLeaderCounts(PartitaClient client, Predicate<List<Integer>> wanted)
      throws InterruptedException {
    final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<Integer> counts = leaderCounts(client);
    while (!wanted.test(counts) && System.nanoTime() < deadline) {
      Thread.sleep(50);
      counts = leaderCounts(client);
    }
    return counts;
  }

  /** How many partitions each of the 3 hosts leads, by {@code @SystemCatalog PARTITIONS}. */
  private static List<Integer> leaderCounts(PartitaClient client) {
    final ResultTable table = client.call("@SystemCatalog", "PARTITIONS").results().get(0);
    final List<Integer> counts = new ArrayList<>(List.of(0, 0, 0));
    while (table.advanceRow()) {
      final int leader = (int) table.getLong("LEADER_HOST_ID");
      counts.set(leader, counts.get(leader) + 1);
    }
    return counts;
  }

  private String logs() {
    final StringBuilder out = new StringBuilder();
    for (int h = 0; h < cluster.hosts.size(); h++) {
      out.append("--- host ").append(h).append(" ---\n").append(cluster.hosts.get(h).output()).append('\n');
    }
    return out.toString();
  }
}
