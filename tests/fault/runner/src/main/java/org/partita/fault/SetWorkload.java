package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.PartitaClient;

/**
 * set and dirty-read (workloads/set.sql): unique inserts by a
 * single-partition procedure, each element in bucket {@code val mod
 * BUCKETS}; dirty-read also reads during the run ({@link #DIRTY_READ_SHARE}
 * of its operations), so the checker can find a value seen but absent at
 * the end. On one host a read reads the whole set in one transaction
 * ({@code SetRead}); on a cluster, where that is refused, a read during the
 * run reads one bucket, and a final read unites every bucket's read
 * ({@link #unionOf}: made after healing, with no writer left, so it is the
 * whole set). Each element's value is its write id. Thread-safe.
 */
final class SetWorkload implements Workload {
  static final double DIRTY_READ_SHARE = 0.1;
  static final int BUCKETS = 32;

  private final boolean dirtyReads;
  private final boolean cluster;
  private final AtomicLong values = new AtomicLong(1);

  SetWorkload(boolean dirtyReads, boolean cluster) {
    this.dirtyReads = dirtyReads;
    this.cluster = cluster;
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
      return cluster ? readBucket(random.nextInt(BUCKETS)) : readAll();
    }
    final long v = values.getAndIncrement();
    return new Operation("add", null, Long.toString(v), "SetAdd", new Object[] {bucket(v), v},
        r -> Long.toString(v), v, false);
  }

  @Override
  public List<Operation> finalReads() {
    return List.of(readAll());
  }

  @Override
  public List<Query> unionOf(Operation read) {
    return cluster && read.procedure().equals("SetRead") ? bucketReads() : null;
  }

  @Override
  public List<Query> auditQueries() {
    return bucketReads();
  }

  @Override
  public List<Query> stateQueries() {
    return bucketReads();
  }

  static long bucket(long value) {
    return Math.floorMod(value, BUCKETS);
  }

  private static List<Query> bucketReads() {
    final List<Query> queries = new ArrayList<>();
    for (long b = 0; b < BUCKETS; b++) {
      queries.add(new Query("SetReadBucket", b));
    }
    return queries;
  }

  private static Operation readAll() {
    return Operation.read("read", null, "SetRead", new Object[0], r -> Results.column(r, 0));
  }

  private static Operation readBucket(long bucket) {
    return Operation.read("read", null, "SetReadBucket", new Object[] {bucket}, r -> Results.column(r, 0));
  }
}
