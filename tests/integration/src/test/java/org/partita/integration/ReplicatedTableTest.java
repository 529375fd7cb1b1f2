package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.PartitaClient;
import org.partita.client.PartitionHash;

/**
 * Ad-hoc writes to a replicated table must reach every partition: a
 * single-partition procedure called with a value of each partition sees the
 * new rows, the updated values and the deletions. Schema: {@code bank.sql}
 * on four sites.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ReplicatedTableTest {
  private static final int SITES = 4;
  private static ServerProcess server;
  private static PartitaClient client;
  /** For each partition, one account id that lives there (index = partition). */
  private static final List<Long> accountOnPartition = new ArrayList<>();
  /** For each partition, a region id whose hash (as the BIGINT id column) lands there. */
  private static final List<Long> regionKeyOnPartition = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    server = ServerProcess.schema("/bank.sql", SITES);
    client = Clients.connect(server, "replicated-test");
    for (int p = 0; p < SITES; p++) {
      accountOnPartition.add(firstValueOn(p, 1));
      regionKeyOnPartition.add(firstValueOn(p, 100));
    }
    for (long id : accountOnPartition) {
      client.call("OpenAccount", id, 1, 0L, "a");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(client, server);
  }

  private static long firstValueOn(int partition, long from) {
    long v = from;
    while (PartitionHash.partition(v, SITES) != partition) {
      v++;
    }
    return v;
  }

  private static List<List<Object>> accountRegion(long id) {
    return Clients.rows(client.call("AccountRegion", id).results().get(0));
  }

  @Test
  void anAdHocInsertIsVisibleToSinglePartitionProceduresOnEveryPartition() {
    for (long id : accountOnPartition) {
      assertEquals(List.of(), accountRegion(id), "region 1 does not exist yet");
    }
    assertEquals(1, Clients.queryLong(client, "INSERT INTO regions VALUES (1, 'north')"));
    for (long id : accountOnPartition) {
      assertEquals(List.of(List.of(id, "north")), accountRegion(id), "account " + id);
    }
  }

  @Test
  void adHocUpdatesAndDeletesReachEveryPartition() {
    final StringBuilder values = new StringBuilder();
    for (long key : regionKeyOnPartition) {
      values.append(values.length() == 0 ? "" : ", ").append("(" + key + ", 'r" + key + "')");
    }
    assertEquals(SITES, Clients.queryLong(client, "INSERT INTO regions VALUES " + values));
    for (long key : regionKeyOnPartition) {
      assertEquals(List.of(List.of("r" + key)), regionName(key), "partition of " + key);
    }
    assertEquals(SITES, Clients.queryLong(client, "UPDATE regions SET name = name || '!' WHERE region_id >= 100"));
    for (long key : regionKeyOnPartition) {
      assertEquals(List.of(List.of("r" + key + "!")), regionName(key), "partition of " + key);
    }
    assertEquals(SITES, Clients.queryLong(client, "DELETE FROM regions WHERE region_id >= 100"));
    for (long key : regionKeyOnPartition) {
      assertEquals(List.of(), regionName(key), "partition of " + key);
    }
  }

  @Test
  void aFailedReplicatedWriteChangesNoPartition() {
    Clients.queryLong(client, "UPSERT INTO regions VALUES (50, 'fifty')");
    final ClientResponse answer = Clients.adHoc(client,
        "INSERT INTO regions VALUES (51, 'fifty-one'), (52, 'fifty-two'), (50, 'again')");
    assertEquals(Status.GRACEFUL_FAILURE, answer.status(), answer.toString());
    assertEquals("CONSTRAINT_VIOLATION", answer.errorName(), answer.toString());
    assertTrue(PartitionHash.partition(51L, SITES) != PartitionHash.partition(52L, SITES)
        || PartitionHash.partition(50L, SITES) != PartitionHash.partition(51L, SITES), "keys on two partitions");
    assertEquals(List.of(), regionName(51));
    assertEquals(List.of(), regionName(52));
    assertEquals(List.of(List.of("fifty")), regionName(50));
    assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM regions WHERE region_id BETWEEN 50 AND 59"));
  }

  @Test
  void everyPartitionHoldsTheSameCopy() {
    Clients.queryLong(client, "UPSERT INTO regions VALUES (70, 'seventy')");
    final var stats = client.call("@Statistics", "TABLE").results().get(0);
    final List<Long> counts = new ArrayList<>();
    while (stats.advanceRow()) {
      if (stats.getString("TABLE_NAME").equals("REGIONS")) {
        assertEquals(1, stats.getLong("REPLICATED"));
        counts.add(stats.getLong("ROW_COUNT"));
      }
    }
    assertEquals(SITES, counts.size());
    assertTrue(counts.stream().distinct().count() == 1, "row counts per partition differ: " + counts);
  }

  private static List<List<Object>> regionName(long key) {
    return Clients.rows(client.call("RegionName", key).results().get(0));
  }
}
