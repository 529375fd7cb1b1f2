package org.partita.fault;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.PartitaClient;

/**
 * redundant-register (workloads/redundant-register.sql): one register kept
 * in {@link #SLOTS} rows spread over the partitions by their slot numbers,
 * all written by one multi-partition transaction (half the operations) and
 * read together (the other half). Setup checks that the slots did land in
 * several partitions. Values are unique in the run; a write's id is its
 * value. Thread-safe.
 */
final class RedundantRegisterWorkload implements Workload {
  static final int SLOTS = 8;

  private final AtomicLong values = new AtomicLong(1);

  @Override
  public String name() {
    return "redundant-register";
  }

  @Override
  public String schemaFile() {
    return "redundant-register.sql";
  }

  @Override
  public void setup(PartitaClient client) {
    for (int slot = 0; slot < SLOTS; slot++) {
      client.call("@AdHoc", "INSERT INTO slots (slot, val) VALUES (" + slot + ", NULL)");
    }
    final int partitions = partitionsHolding(client, "SLOTS");
    if (partitions < Math.min(2, client.topology().partitionCount())) {
      throw new IllegalStateException("redundant-register: the " + SLOTS + " slots landed in " + partitions
          + " partition(s); the workload needs them spread over several");
    }
  }

  /**
   * How many partitions hold rows of {@code table}, from {@code @Statistics
   * TABLE}. A cluster host reports only the copies it holds, so on a
   * cluster every host of the client's topology is asked on its own.
   */
  static int partitionsHolding(PartitaClient client, String table) {
    final java.util.Set<Long> partitions = new java.util.TreeSet<>();
    final java.util.Collection<String> hosts = client.topology().hosts().values();
    if (hosts.size() <= 1) {
      countRows(client, table, partitions);
      return partitions.size();
    }
    for (String address : hosts) {
      try (PartitaClient alone = new PartitaClient(org.partita.client.ClientConfig.builder()
          .clientName("fault-setup").discoverHosts(false).build())) {
        alone.connect(address);
        countRows(alone, table, partitions);
      }
    }
    return partitions.size();
  }

  private static void countRows(PartitaClient client, String table, java.util.Set<Long> partitions) {
    final org.partita.client.ResultTable stats = client.call("@Statistics", "TABLE").results().get(0);
    while (stats.advanceRow()) {
      if (stats.getString("TABLE_NAME").equalsIgnoreCase(table) && stats.getLong("ROW_COUNT") > 0) {
        partitions.add(stats.getLong("PARTITION_ID"));
      }
    }
  }

  @Override
  public Operation next(Random random, long elapsedNanos) {
    if (random.nextBoolean()) {
      return read();
    }
    final long v = values.getAndIncrement();
    return new Operation("write", null, Long.toString(v), "RedundantWrite", new Object[] {v}, r -> Long.toString(v),
        v, false);
  }

  @Override
  public List<Operation> finalReads() {
    return List.of(read());
  }

  @Override
  public List<Query> auditQueries() {
    return Query.adHoc("SELECT val FROM redundant_writes");
  }

  @Override
  public List<Query> stateQueries() {
    return Query.adHoc("SELECT slot, val FROM slots ORDER BY slot", "SELECT val FROM redundant_writes ORDER BY val");
  }

  @Override
  public String multiPartitionReason() {
    return "each write sets every partition's slot in one transaction and each read reads them all together";
  }

  private static Operation read() {
    return Operation.read("read", null, "RedundantRead", new Object[0], r -> Results.column(r, 1));
  }
}
