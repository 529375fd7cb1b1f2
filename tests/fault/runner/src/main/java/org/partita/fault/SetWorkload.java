package org.partita.fault;

import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.PartitaClient;

/**
 * set and dirty-read (workloads/set.sql): unique inserts by a
 * single-partition procedure; dirty-read also reads the whole set during
 * the run ({@link #DIRTY_READ_SHARE} of its operations), so the checker can
 * find a value seen but absent at the end. Each element's value is its
 * write id. Thread-safe.
 */
final class SetWorkload implements Workload {
  static final double DIRTY_READ_SHARE = 0.1;

  private final boolean dirtyReads;
  private final AtomicLong values = new AtomicLong(1);

  SetWorkload(boolean dirtyReads) {
    this.dirtyReads = dirtyReads;
  }

  @Override
  public String name() {
    return dirtyReads ? "dirty-read" : "set";
  }

  @Override
  public String schemaFile() {
    return "set.sql";
  }

  @Override
  public void setup(PartitaClient client) {
    // The set starts empty.
  }

  @Override
  public Operation next(Random random, long elapsedNanos) {
    if (dirtyReads && random.nextDouble() < DIRTY_READ_SHARE) {
      return readAll();
    }
    final long v = values.getAndIncrement();
    return new Operation("add", null, Long.toString(v), "SetAdd", new Object[] {v}, r -> Long.toString(v), v,
        false);
  }

  @Override
  public List<Operation> finalReads() {
    return List.of(readAll());
  }

  @Override
  public String auditQuery() {
    return "SELECT val FROM elements";
  }

  @Override
  public List<String> stateQueries() {
    return List.of("SELECT val FROM elements ORDER BY val");
  }

  private static Operation readAll() {
    return Operation.read("read", null, "SetRead", new Object[0], r -> Results.column(r, 0));
  }
}
