package org.partita.server.sysproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.server.sysproc.SysprocFixture.columns;
import static org.partita.server.sysproc.SysprocFixture.rows;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ResultTable;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.topology.PartitionMap;

@Timeout(60)
class ClusterStatisticsTest {
  private SysprocFixture f;

  @AfterEach
  void close() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  /** Three hosts, K = 1, after host 1 died: partition 1 moved to host 2 in epoch 2. */
  private static ClusterStatus afterFailover() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    final PartitionMap map = PartitionMap.of(2, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 2, List.of(2), 2), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1)));
    return new ClusterStatus(0, 42, map, List.of(
        new ClusterStatus.Host(0, ClusterStatus.HostState.SERVING, 7, "127.0.0.1:21212", "127.0.0.1:8080"),
        new ClusterStatus.Host(1, ClusterStatus.HostState.DEAD, 8, "127.0.0.2:21212", ""),
        new ClusterStatus.Host(2, ClusterStatus.HostState.SERVING, 9, "127.0.0.3:21212", "127.0.0.3:8080")),
        List.of(new ClusterStatus.Change(1_795_341_600_000L, 41, 1, "HOST_DEAD", 1, -1, "host 1 declared dead"),
            new ClusterStatus.Change(1_795_341_600_000L, 41, 2, "NEW_LEADER", 2, 1, "partition 1: leader 1 -> 2")));
  }

  @Test
  void shouldAnswerASingleServerAsAClusterOfOneHost() throws Exception {
    f = new SysprocFixture(2);
    final SystemProcedures single = new SystemProcedures(f.db, f.statistics, List::of,
        () -> new ServerIdentity(0, "127.0.0.1", 21212, 8080, 1_700_000_000_000L, "Partita test"), () -> { });
    f.statistics.record("Vote", Status.SUCCESS, 100_000);
    final AtomicReference<ClientResponse> answer = new AtomicReference<>();
    assertTrue(single.call("@Statistics", new Object[] {"CLUSTER"}, answer::set));
    final ClientResponse r = answer.get();
    assertTrue(r.ok(), r::toString);
    assertEquals(4, r.results().size(), "hosts, partitions, changes, figures");
    final ResultTable hosts = r.results().get(0);
    assertEquals(List.of("HOST_ID", "STATE", "CLIENT_ADDRESS", "HTTP_ADDRESS", "INCARNATION", "LEADS", "COPIES",
        "IS_THIS_HOST"), columns(hosts));
    assertEquals(List.of("0|SERVING|127.0.0.1:21212|127.0.0.1:8080|0|2|2|1"), rows(hosts));
    assertEquals(List.of("0|0|0|1|1", "1|0|0|1|1"), rows(r.results().get(1)));
    assertEquals(List.of(), rows(r.results().get(2)));
    final ResultTable figures = r.results().get(3);
    assertEquals(List.of("HOST_ID", "METADATA_INDEX", "TOPOLOGY_VERSION", "INVOCATIONS", "THROUGHPUT_PER_SECOND",
        "P50_LATENCY_US", "P99_LATENCY_US", "PERIOD_SECONDS"), columns(figures));
    figures.advanceRow();
    assertEquals(0, figures.getLong("HOST_ID"));
    assertEquals(1, figures.getLong("INVOCATIONS"), "the calls since start");
  }

  @Test
  void shouldAnswerFromTheClusterViewItFollows() throws Exception {
    f = new SysprocFixture(1);
    f.sysprocs.followCluster(ClusterStatisticsTest::afterFailover);
    final ClientResponse r = f.call("@Statistics", "CLUSTER");
    assertTrue(r.ok(), r::toString);
    assertEquals(List.of("0|SERVING|127.0.0.1:21212|127.0.0.1:8080|7|1|2|1", "1|DEAD|127.0.0.2:21212|NULL|8|0|1|0",
        "2|SERVING|127.0.0.3:21212|127.0.0.3:8080|9|2|2|0"), rows(r.results().get(0)),
        "a dead host still listed with its last copies; no page address when it has none");
    assertEquals(List.of("0|0|0,1|1|2", "1|2|2|2|2", "2|2|2,0|1|2"), rows(r.results().get(1)));
    final ResultTable changes = r.results().get(2);
    assertEquals(List.of("SEEN_AT", "METADATA_INDEX", "TOPOLOGY_VERSION", "KIND", "HOST_ID", "PARTITION_ID",
        "DESCRIPTION"), columns(changes));
    changes.advanceRow();
    assertEquals(1_795_341_600_000_000L, changes.getTimestampMicros(0));
    assertEquals(List.of("HOST_DEAD|1|NULL|host 1 declared dead", "NEW_LEADER|2|1|partition 1: leader 1 -> 2"),
        rows(changes).stream().map(line -> line.split("\\|", 4)[3]).toList());
    final ResultTable figures = r.results().get(3);
    figures.advanceRow();
    assertEquals(42, figures.getLong("METADATA_INDEX"));
    assertEquals(2, figures.getLong("TOPOLOGY_VERSION"));
  }

  @Test
  void shouldGiveEveryReaderTheSamePeriodOfAtLeastOneSecond() {
    final ProcedureStatistics statistics = new ProcedureStatistics();
    final AtomicLong clock = new AtomicLong(1_000_000_000L);
    final StatsCluster selector = new StatsCluster(statistics, ClusterStatisticsTest::afterFailover, clock::get);
    for (int i = 0; i < 50; i++) {
      statistics.record("Vote", Status.SUCCESS, 2_000_000);
    }
    clock.addAndGet(StatsCluster.PERIOD_NANOS / 2);
    assertEquals(0, periodCalls(selector), "the first period has not ended: the one before it (empty) stays");
    clock.addAndGet(StatsCluster.PERIOD_NANOS / 2);
    assertEquals(50, periodCalls(selector), "a period of 1 s ended with the 50 calls");
    statistics.record("Vote", Status.SUCCESS, 2_000_000);
    clock.addAndGet(StatsCluster.PERIOD_NANOS / 10);
    assertEquals(50, periodCalls(selector), "a second reader within the second sees the same period");
    assertEquals(50, periodCalls(selector));
    clock.addAndGet(StatsCluster.PERIOD_NANOS);
    assertEquals(1, periodCalls(selector), "the next period holds only the call after the cut");
  }

  /** Reads CLUSTER's figures: the period's throughput times its length, checking the latency of 2 ms. */
  private static long periodCalls(StatsCluster selector) {
    final AtomicReference<ClientResponse> answer = new AtomicReference<>();
    assertTrue(selector.answer(false, answer::set));
    final ResultTable figures = answer.get().results().get(3);
    figures.advanceRow();
    final long calls = Math.round(figures.getDouble("THROUGHPUT_PER_SECOND") * figures.getDouble("PERIOD_SECONDS"));
    if (calls > 0) {
      assertEquals(2000, figures.getLong("P50_LATENCY_US"), 50, "latency of the period");
    }
    return calls;
  }
}
