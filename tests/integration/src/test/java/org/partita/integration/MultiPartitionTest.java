package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.PartitaClient;
import org.partita.client.PartitionHash;
import org.partita.client.ResultTable;

/**
 * Writes spread over three partitions (single-partition SQL procedures,
 * single-row and multi-row ad-hoc INSERTs), then multi-partition reads that
 * must agree with the test's own model of what was written, and
 * multi-partition writes that fail half way and must leave nothing behind on
 * any partition, views included. Schema: {@code bank.sql}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MultiPartitionTest {
  private static final int SITES = 3;
  private static final int REGIONS = 4;
  private static final long ACCOUNTS = 600;
  /** The model: account id → {region, balance}. */
  private static final Map<Long, long[]> model = new TreeMap<>();

  private static ServerProcess server;
  private static PartitaClient client;

  @BeforeAll
  static void startAndWrite() throws Exception {
    server = ServerProcess.schema("/bank.sql", SITES);
    client = Clients.connect(server, "multi-partition-test");
    client.call("@AdHoc", "INSERT INTO regions VALUES (1, 'north'), (2, 'east'), (3, 'south'), (4, 'west')");
    final List<CompletableFuture<ClientResponse>> writes = new ArrayList<>();
    for (long id = 1; id <= ACCOUNTS; id++) {
      model.put(id, new long[] {regionOf(id), id * 10});
      if (id % 2 == 1) {
        writes.add(client.callAsync("OpenAccount", id, (int) regionOf(id), id * 10, "acct-" + id));
      } else {
        writes.add(client.callAsync("@AdHoc", "INSERT INTO accounts VALUES (?, ?, ?, ?)", id, regionOf(id),
            id * 10, "acct-" + id));
      }
    }
    assertAllModifiedOne(writes);
    final StringBuilder rows = new StringBuilder();
    for (long id = ACCOUNTS + 1; id <= ACCOUNTS + 20; id++) {
      model.put(id, new long[] {regionOf(id), id * 10});
      rows.append(rows.length() == 0 ? "" : ", ").append("(" + id + ", " + regionOf(id) + ", " + id * 10
          + ", 'bulk')");
    }
    assertEquals(20, Clients.queryLong(client, "INSERT INTO accounts VALUES " + rows));
    writes.clear();
    for (long id = 3; id <= ACCOUNTS; id += 3) {
      model.get(id)[1] += 5;
      writes.add(client.callAsync("Deposit", 5L, id));
    }
    assertAllModifiedOne(writes);
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(client, server);
  }

  private static long regionOf(long id) {
    return id % REGIONS + 1;
  }

  private static void assertAllModifiedOne(List<CompletableFuture<ClientResponse>> writes) {
    for (CompletableFuture<ClientResponse> w : writes) {
      final ClientResponse r = w.join();
      assertTrue(r.ok(), r.toString());
      assertEquals(1, r.firstLong(), "modified tuples");
    }
  }

  @Test
  void eachPartitionHoldsTheRowsItsHashSays() {
    final long[] expected = new long[SITES];
    model.keySet().forEach(id -> expected[PartitionHash.partition(id, SITES)]++);
    final long[] actual = new long[SITES];
    final ResultTable tables = client.call("@Statistics", "TABLE").results().get(0);
    while (tables.advanceRow()) {
      if (tables.getString("TABLE_NAME").equals("ACCOUNTS")) {
        actual[(int) tables.getLong("PARTITION_ID")] += tables.getLong("ROW_COUNT");
      }
    }
    assertEquals(java.util.Arrays.toString(expected), java.util.Arrays.toString(actual));
    for (long rows : actual) {
      assertTrue(rows > 0, "every partition must get rows");
    }
  }

  @Test
  void countAndSumAcrossPartitionsMatchTheWrites() {
    final ResultTable t = Clients.query(client, "SELECT COUNT(*), SUM(balance), MIN(id), MAX(id) FROM accounts");
    assertEquals(List.of(List.of((long) model.size(), totalBalance(), 1L, ACCOUNTS + 20)), Clients.rows(t));
  }

  @Test
  void groupByAcrossPartitionsMatchesTheWrites() {
    assertEquals(expectedRegionTotals(), Clients.rows(Clients.query(client,
        "SELECT region_id, COUNT(*), SUM(balance) FROM accounts GROUP BY region_id ORDER BY region_id")));
  }

  @Test
  void theViewMergedByAMultiPartitionProcedureMatchesTheTable() {
    assertEquals(expectedRegionTotals(), Clients.rows(client.call("RegionTotals").results().get(0)));
  }

  @Test
  void orderByLimitOffsetAcrossPartitionsMatchesTheWrites() {
    final List<List<Object>> expected = new ArrayList<>();
    model.entrySet().stream()
        .sorted(Comparator.comparing((Map.Entry<Long, long[]> e) -> -e.getValue()[1]).thenComparing(Map.Entry::getKey))
        .skip(3).limit(7)
        .forEach(e -> expected.add(List.of(e.getKey(), e.getValue()[1])));
    assertEquals(expected, Clients.rows(Clients.query(client,
        "SELECT id, balance FROM accounts ORDER BY balance DESC, id LIMIT 7 OFFSET 3")));
  }

  @Test
  void aJoinWithTheReplicatedTableAcrossPartitionsCountsEveryAccount() {
    assertEquals(List.of(List.of("east", 155L), List.of("north", 155L), List.of("south", 155L),
        List.of("west", 155L)), Clients.rows(Clients.query(client, "SELECT r.name, COUNT(*) FROM accounts a"
            + " JOIN regions r ON r.region_id = a.region_id GROUP BY r.name ORDER BY r.name")));
  }

  @Test
  void aMultiRowInsertWithADuplicateKeyRollsBackOnEveryPartition() {
    final List<Object> before = state();
    final StringBuilder rows = new StringBuilder();
    for (long id = 9001; id <= 9012; id++) {
      rows.append("(" + id + ", 1, 100, 'new'), ");
    }
    final ClientResponse answer = Clients.adHoc(client, "INSERT INTO accounts VALUES " + rows
        + "(" + ACCOUNTS + ", 1, 100, 'duplicate')");
    assertEquals(Status.GRACEFUL_FAILURE, answer.status(), answer.toString());
    assertEquals("CONSTRAINT_VIOLATION", answer.errorName(), answer.toString());
    assertTrue(answer.message().contains("PK_ACCOUNTS"), answer.message());
    assertEquals(before, state());
    assertEquals(0, Clients.queryLong(client, "SELECT COUNT(*) FROM accounts WHERE id > 9000"));
  }

  @Test
  void anUpdateHittingNotNullOnOnePartitionRollsBackOnEveryPartition() {
    final List<Object> before = state();
    final ClientResponse answer = Clients.adHoc(client, "UPDATE accounts SET balance = balance + 1000,"
        + " label = CASE WHEN id = 7 THEN NULL ELSE label END");
    assertEquals(Status.GRACEFUL_FAILURE, answer.status(), answer.toString());
    assertEquals("NOT_NULL_VIOLATION", answer.errorName(), answer.toString());
    assertTrue(answer.message().toUpperCase().contains("LABEL"), answer.message());
    assertEquals(before, state());
  }

  @Test
  void anUpdateFailingOnOnePartitionWithADivisionByZeroRollsBackEverywhere() {
    final List<Object> before = state();
    final ClientResponse answer = Clients.adHoc(client,
        "UPDATE accounts SET balance = balance + 100 / (id - 11) WHERE region_id IN (1, 4)");
    assertEquals(Status.GRACEFUL_FAILURE, answer.status(), answer.toString());
    assertEquals("DIVISION_BY_ZERO", answer.errorName(), answer.toString());
    assertEquals(before, state());
  }

  @Test
  void aSuccessfulMultiPartitionUpdateIsSeenByEveryPartitionAndTheView() {
    final List<Object> before = state();
    final long regionTwo = model.keySet().stream().filter(id -> regionOf(id) == 2).count();
    assertEquals(regionTwo, Clients.queryLong(client,
        "UPDATE accounts SET balance = balance + 1 WHERE region_id = 2"));
    assertEquals(regionTwo, Clients.queryLong(client,
        "SELECT SUM(accounts) FROM accounts_by_region WHERE region_id = 2"));
    assertEquals(totalBalance() + regionTwo, Clients.queryLong(client, "SELECT SUM(total) FROM accounts_by_region"));
    assertEquals(regionTwo, Clients.queryLong(client,
        "UPDATE accounts SET balance = balance - 1 WHERE region_id = 2"));
    assertEquals(before, state());
  }

  /** What a failed write must not change: totals, the merged view, and every partition's row counts. */
  private static List<Object> state() {
    return List.of(
        Clients.rows(Clients.query(client, "SELECT COUNT(*), SUM(balance) FROM accounts")),
        Clients.rows(client.call("RegionTotals").results().get(0)),
        Clients.rows(Clients.query(client, "SELECT id, balance, label FROM accounts WHERE id IN (7, 11, 12)"
            + " ORDER BY id")),
        tableRowCounts());
  }

  private static List<String> tableRowCounts() {
    final List<String> counts = new ArrayList<>();
    final ResultTable t = client.call("@Statistics", "TABLE").results().get(0);
    while (t.advanceRow()) {
      counts.add(t.getLong("PARTITION_ID") + ":" + t.getString("TABLE_NAME") + "=" + t.getLong("ROW_COUNT"));
    }
    counts.sort(null);
    return counts;
  }

  private static long totalBalance() {
    return model.values().stream().mapToLong(v -> v[1]).sum();
  }

  private static List<List<Object>> expectedRegionTotals() {
    final List<List<Object>> rows = new ArrayList<>();
    for (long region = 1; region <= REGIONS; region++) {
      final long r = region;
      rows.add(List.of((int) region, model.values().stream().filter(v -> v[0] == r).count(),
          model.values().stream().filter(v -> v[0] == r).mapToLong(v -> v[1]).sum()));
    }
    return rows;
  }
}
