package org.partita.server.sysproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.server.sysproc.SysprocFixture.columns;
import static org.partita.server.sysproc.SysprocFixture.rows;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ResultTable;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.stats.ConnectionSnapshot;

@Timeout(60)
class StatisticsTest {
  private SysprocFixture f;

  @AfterEach
  void close() throws Exception {
    if (f != null) {
      f.close();
    }
  }

  private void insertItems(int count) throws Exception {
    for (long id = 1; id <= count; id++) {
      assertTrue(f.call("@AdHoc", "INSERT INTO items (id, grp, name) VALUES (?, ?, ?)", id, (int) (id % 2),
          "item " + id).ok());
    }
    assertTrue(f.call("@AdHoc", "INSERT INTO groups VALUES (0, 'even')").ok());
  }

  private static long sum(ResultTable t, String column, String whereColumn, String equals) {
    long total = 0;
    t.resetRowPosition();
    while (t.advanceRow()) {
      if (equals == null || equals.equals(t.getString(whereColumn))) {
        total += t.getLong(column);
      }
    }
    return total;
  }

  @Test
  void shouldReportEachProcedureCallsFailuresAndLatency() throws Exception {
    f = new SysprocFixture(1);
    f.statistics.record("Vote", Status.SUCCESS, 100_000);
    f.statistics.record("Vote", Status.USER_ABORT, 200_000);
    f.statistics.record("@Ping", Status.SUCCESS, 2_000);
    final ResultTable t = f.table("@Statistics", "PROCEDURE");
    assertEquals(List.of("PROCEDURE_NAME", "INVOCATIONS", "FAILURES", "USER_ABORTS", "GRACEFUL_FAILURES", "REJECTED",
        "UNEXPECTED_FAILURES", "MIN_LATENCY_US", "AVG_LATENCY_US", "P50_LATENCY_US", "P95_LATENCY_US",
        "P99_LATENCY_US", "P999_LATENCY_US", "MAX_LATENCY_US"), columns(t));
    assertEquals(List.of("@Ping|1|0|0|0|0|0|2|2.0|2|2|2|2|2", "Vote|2|1|1|0|0|0|100|150.0|100|200|200|200|200"),
        rows(t));
  }

  @Test
  void shouldReportOnlyNewCallsInTheNextInterval() throws Exception {
    f = new SysprocFixture(1);
    f.statistics.record("Vote", Status.SUCCESS, 1_000);
    assertEquals(1, rows(f.table("@Statistics", "PROCEDURE", 1L)).size());
    f.statistics.record("Other", Status.REJECTED, 1_000);
    assertEquals(List.of("Other|1|1|0|0|1|0|1|1.0|1|1|1|1|1"), rows(f.table("@Statistics", "PROCEDURE", 1)));
    assertEquals(List.of(), rows(f.table("@Statistics", "PROCEDURE", 1L)));
    assertEquals(2, rows(f.table("@Statistics", "PROCEDURE", 0L)).size(), "since start keeps everything");
  }

  @Test
  void shouldReportLatencyAndThroughputOfAllCalls() throws Exception {
    f = new SysprocFixture(1);
    for (int i = 1; i <= 100; i++) {
      f.statistics.record(i % 2 == 0 ? "a" : "b", Status.SUCCESS, i * 1000L);
    }
    final ResultTable t = f.table("@Statistics", "LATENCY", 1L);
    assertEquals(List.of("INVOCATIONS", "P50_LATENCY_US", "P95_LATENCY_US", "P99_LATENCY_US", "P999_LATENCY_US",
        "MAX_LATENCY_US", "THROUGHPUT_PER_SECOND", "PERIOD_SECONDS", "FAILURES", "MIN_LATENCY_US", "AVG_LATENCY_US"),
        columns(t));
    t.advanceRow();
    assertEquals(100, t.getLong("INVOCATIONS"));
    assertEquals(50, t.getLong("P50_LATENCY_US"));
    assertEquals(99, t.getLong("P99_LATENCY_US"));
    assertEquals(100, t.getLong("MAX_LATENCY_US"));
    assertEquals(50.5, t.getDouble("AVG_LATENCY_US"), 1e-9);
    assertTrue(t.getDouble("THROUGHPUT_PER_SECOND") > 0);
    final ResultTable next = f.table("@Statistics", "LATENCY", 1L);
    next.advanceRow();
    assertEquals(0, next.getLong("INVOCATIONS"), "the interval read reset the period");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldReportRowsAndMemoryOfEveryTableInEveryPartition(int partitions) throws Exception {
    f = new SysprocFixture(partitions);
    insertItems(10);
    final ResultTable t = f.table("@Statistics", "TABLE");
    assertEquals(List.of("PARTITION_ID", "TABLE_NAME", "ROW_COUNT", "BYTES_USED", "BYTES_ALLOCATED", "INDEX_BYTES",
        "REPLICATED"), columns(t));
    assertEquals(4 * partitions, t.rowCount(), "items, groups and two views in each partition");
    assertEquals(10, sum(t, "ROW_COUNT", "TABLE_NAME", "ITEMS"));
    assertEquals(partitions, sum(t, "ROW_COUNT", "TABLE_NAME", "GROUPS"), "a replicated table is in every partition");
    assertEquals(10, sum(t, "ROW_COUNT", "TABLE_NAME", "ITEMS_PER_ID"));
    t.resetRowPosition();
    while (t.advanceRow()) {
      assertTrue(t.getLong("PARTITION_ID") >= 0 && t.getLong("PARTITION_ID") < partitions);
      assertEquals(t.getString("TABLE_NAME").equals("GROUPS") ? 1 : 0, t.getLong("REPLICATED"), t.getString(1));
      assertTrue(t.getLong("BYTES_ALLOCATED") >= t.getLong("BYTES_USED"), t.getString(1));
    }
  }

  @Test
  void shouldReportAChecksumOfEveryPartitionThatFollowsItsRows() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable empty = f.table("@Statistics", "CHECKSUM");
    assertEquals(List.of("PARTITION_ID", "LEADER", "LAST_EPOCH", "LAST_SEQUENCE", "CHECKSUM"), columns(empty));
    assertEquals(2, empty.rowCount());
    final List<Long> before = new java.util.ArrayList<>();
    while (empty.advanceRow()) {
      assertEquals(1, empty.getLong("LEADER"), "a single host leads every partition");
      before.add(empty.getLong("CHECKSUM"));
    }
    assertEquals(before, checksums(f.table("@Statistics", "CHECKSUM")), "nothing changed: the same checksums");
    insertItems(10);
    final ResultTable after = f.table("@Statistics", "CHECKSUM");
    final List<Long> changed = checksums(after);
    assertTrue(!changed.get(0).equals(before.get(0)) && !changed.get(1).equals(before.get(1)), changed::toString);
    after.resetRowPosition();
    while (after.advanceRow()) {
      assertTrue(after.getLong("LAST_SEQUENCE") > 0, "the last transaction each partition ran");
    }
  }

  private static List<Long> checksums(ResultTable t) {
    final List<Long> out = new java.util.ArrayList<>();
    t.resetRowPosition();
    while (t.advanceRow()) {
      out.add(t.getLong("CHECKSUM"));
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldReportEachPartitionsQueueAndWorkThenTheCoordinator(int partitions) throws Exception {
    f = new SysprocFixture(partitions);
    insertItems(6);
    final ResultTable t = f.table("@Statistics", "PARTITION");
    assertEquals(List.of("PARTITION_ID", "QUEUE_DEPTH", "QUEUE_CAPACITY", "BUSY_PERCENT", "TASKS_RUN",
        "PERIOD_SECONDS"), columns(t));
    assertEquals(partitions + 1, t.rowCount());
    for (int p = 0; p < partitions; p++) {
      t.advanceToRow(p);
      assertEquals(p, t.getLong("PARTITION_ID"));
      assertEquals(1024, t.getLong("QUEUE_CAPACITY"));
      final double busy = t.getDouble("BUSY_PERCENT");
      assertTrue(busy >= 0 && busy <= 100, "busy " + busy);
      assertTrue(t.getLong("TASKS_RUN") >= 0);
    }
    t.advanceToRow(partitions);
    assertEquals(StatsPartitions.COORDINATOR, t.getLong("PARTITION_ID"));
    t.getDouble("BUSY_PERCENT");
    assertTrue(t.wasNull());
  }

  /** TASKS_RUN summed over the partitions of one @Statistics PARTITION read. */
  private long tasksRun(long interval) throws Exception {
    final ResultTable t = f.table("@Statistics", "PARTITION", interval);
    long tasks = 0;
    while (t.advanceRow()) {
      if (t.getLong("PARTITION_ID") != StatsPartitions.COORDINATOR) {
        tasks += t.getLong("TASKS_RUN");
      }
    }
    return tasks;
  }

  // Sites count tasks when their queue runs dry, just after answering: poll until the count shows.
  @Test
  void shouldCountPartitionTasksSinceThePreviousIntervalRead() throws Exception {
    f = new SysprocFixture(2);
    insertItems(3);
    tasksRun(1);
    for (long id = 100; id < 105; id++) {
      assertTrue(f.call("@AdHoc", "INSERT INTO items (id) VALUES (?)", id).ok());
    }
    long inIntervals = 0;
    final long deadline = System.nanoTime() + 5_000_000_000L;
    while (inIntervals < 5 && System.nanoTime() < deadline) {
      inIntervals += tasksRun(1);
    }
    assertTrue(inIntervals >= 5, "the five inserts ran after the first interval read: " + inIntervals);
    // The three first inserts may be counted late, inside the intervals: since start holds at least both sets.
    assertTrue(tasksRun(0) >= Math.max(inIntervals, 3 + 5), "since start counts every task, interval reads reset nothing");
  }

  @Test
  void shouldReportHeapAndEngineMemory() throws Exception {
    f = new SysprocFixture(2);
    insertItems(20);
    final ResultTable t = f.table("@Statistics", "MEMORY");
    assertEquals(List.of("HEAP_USED", "HEAP_COMMITTED", "HEAP_MAX", "DIRECT_USED", "NETTY_DIRECT_USED", "ENGINE_ROWS",
        "ENGINE_BYTES_USED", "ENGINE_BYTES_ALLOCATED", "ENGINE_INDEX_BYTES"), columns(t));
    t.advanceRow();
    assertTrue(t.getLong("HEAP_USED") > 0);
    assertTrue(t.getLong("HEAP_COMMITTED") >= t.getLong("HEAP_USED"));
    assertEquals(20 + 2 + 20 + 4, t.getLong("ENGINE_ROWS"),
        "items, groups in 2 partitions, items_per_id, 2 groups of items_per_group in 2 partitions");
    assertTrue(t.getLong("ENGINE_BYTES_ALLOCATED") > 0);
    assertTrue(t.getLong("ENGINE_INDEX_BYTES") > 0);
  }

  @Test
  void shouldAnswerTopoWithThePartitionMapAsSystemCatalogDoes() throws Exception {
    f = new SysprocFixture(2);
    final ResultTable topo = f.table("@Statistics", "TOPO");
    assertEquals(rows(f.table("@SystemCatalog", "PARTITIONS")), rows(topo));
    assertEquals(List.of("0|0|NULL|0|1|8192|1", "1|0|NULL|0|1|8192|1"), rows(topo));
  }

  @Test
  void shouldReportTheCommandLogOrThatThereIsNone() throws Exception {
    f = new SysprocFixture(1);
    final ResultTable off = f.table("@Statistics", "COMMANDLOG");
    assertEquals(List.of("MODE", "RECORDS", "BYTES", "SYNCS", "LARGEST_BATCH", "LONGEST_SYNC_MICROS",
        "THROTTLED_MICROS", "MEAN_BATCH", "SYNC_P50_MICROS", "SYNC_P99_MICROS", "SYNC_P999_MICROS"), columns(off));
    assertEquals(List.of("OFF|0|0|0|0|0|0|0.0|0|0|0"), rows(off));
    final SystemProcedures logged = new SystemProcedures(f.db, new ProcedureStatistics(), List::of,
        () -> SysprocFixture.IDENTITY, () -> { }, () -> new LogFigures("SYNC", 10, 4096, 4, 6, 2_500_000, 7_000,
            300, 900, 2_400));
    final java.util.concurrent.CompletableFuture<org.partita.client.ClientResponse> answer =
        new java.util.concurrent.CompletableFuture<>();
    assertTrue(logged.call("@Statistics", new Object[] {"COMMANDLOG"}, answer::complete));
    assertEquals(List.of("SYNC|10|4096|4|6|2500|7|2.5|300|900|2400"), rows(answer.get().results().get(0)));
  }

  @Test
  void shouldListEveryConnection() throws Exception {
    f = new SysprocFixture(1);
    assertEquals(List.of(), rows(f.table("@Statistics", "CONNECTIONS")));
    f.connections.add(new ConnectionSnapshot(7, "127.0.0.1:5000", "bench", 1_000, 10, 2, 300, 400, true));
    final ResultTable t = f.table("@Statistics", "connections");
    assertEquals(List.of("CONNECTION_ID", "REMOTE_ADDRESS", "CLIENT_NAME", "CONNECTED_AT", "CALLS_RECEIVED",
        "CALLS_IN_FLIGHT", "BYTES_READ", "BYTES_WRITTEN", "READS_PAUSED"), columns(t));
    t.advanceRow();
    assertEquals(7, t.getLong(0));
    assertEquals("127.0.0.1:5000", t.getString(1));
    assertEquals("bench", t.getString(2));
    assertEquals(1_000_000, t.getTimestampMicros(3));
    assertEquals(List.of(10L, 2L, 300L, 400L, 1L), List.of(t.getLong(4), t.getLong(5), t.getLong(6), t.getLong(7),
        t.getLong(8)));
  }

  @Test
  void shouldRejectAnUnknownSelectorListingTheValidOnes() throws Exception {
    f = new SysprocFixture(1);
    final ClientResponse r = f.call("@Statistics", "TABLES");
    assertEquals(Status.REJECTED, r.status());
    assertEquals("BAD_PARAMETER", r.errorName());
    assertEquals("@Statistics: unknown selector TABLES; selectors: PROCEDURE, LATENCY, TABLE, PARTITION, MEMORY,"
        + " CONNECTIONS, TOPO, COMMANDLOG, SNAPSHOT, CHECKSUM, CLUSTER", r.message());
  }

  @Test
  void shouldRejectABadIntervalOrParameterCount() throws Exception {
    f = new SysprocFixture(1);
    assertEquals("@Statistics parameter 2 (interval) must be the integer 0 or 1, got Long 2",
        f.call("@Statistics", "PROCEDURE", 2L).message());
    assertEquals("@Statistics parameter 2 (interval) must be the integer 0 or 1, got String 1",
        f.call("@Statistics", "PROCEDURE", "1").message());
    assertEquals("@Statistics parameter 1 (selector) must be non-empty VARCHAR text, got Integer 1",
        f.call("@Statistics", 1).message());
    assertEquals("@Statistics takes 1 to 2 parameter(s) (selector [, interval]), got 0",
        f.call("@Statistics").message());
    assertEquals("@Statistics takes 1 to 2 parameter(s) (selector [, interval]), got 3",
        f.call("@Statistics", "TABLE", 0L, 0L).message());
  }
}
