package org.partita.fault;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.PartitaClient;

/**
 * register: per-key registers read, written and compare-and-set by
 * single-partition procedures (workloads/register.sql). Workers share
 * {@link #KEYS_AT_ONCE} keys at a time and move to fresh keys every
 * {@link #KEY_PERIOD_SECONDS} s, so each key's history stays small enough
 * for the linearizability search. Every written value is unique in the run
 * (a write's id is its value), so the audit can find each write. A CAS
 * expects the last value any worker saw on its key. Every call, the audit
 * and the state included, is single-partition (one key), so the workload
 * runs on a cluster. Thread-safe.
 */
final class RegisterWorkload implements Workload {
  static final int KEYS_AT_ONCE = 3;
  static final long KEY_PERIOD_SECONDS = 10;

  private final AtomicLong values = new AtomicLong(1);
  private final Set<Long> keysUsed = new ConcurrentSkipListSet<>();
  private final Map<Long, Long> lastSeen = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "register";
  }

  @Override
  public String schemaFile() {
    return "register.sql";
  }

  @Override
  public void setup(PartitaClient client) {
    // Registers start unwritten (null).
  }

  @Override
  public Operation next(Random random, long elapsedNanos) {
    final long period = elapsedNanos / TimeUnit.SECONDS.toNanos(KEY_PERIOD_SECONDS);
    final long key = period * KEYS_AT_ONCE + random.nextInt(KEYS_AT_ONCE);
    keysUsed.add(key);
    final String k = Long.toString(key);
    switch (random.nextInt(3)) {
      case 0:
        return read(key);
      case 1: {
        final long v = values.getAndIncrement();
        return new Operation("write", k, Long.toString(v), "RegisterWrite", new Object[] {key, v},
            r -> Long.toString(v), v, false);
      }
      default: {
        final long v = values.getAndIncrement();
        final long expected = lastSeen.getOrDefault(key, 0L);
        return new Operation("cas", k, "[" + expected + "," + v + "]", "RegisterCas",
            new Object[] {key, expected, v}, Results::asBoolean, v, true);
      }
    }
  }

  @Override
  public void observed(Operation operation, String completion) {
    final long key = Long.parseLong(operation.key());
    if (operation.f().equals("read") && !completion.equals("null")) {
      lastSeen.put(key, Long.parseLong(completion));
    } else if (operation.f().equals("write") || operation.tookEffect(completion)) {
      lastSeen.put(key, operation.writeId());
    }
  }

  @Override
  public List<Operation> finalReads() {
    final List<Operation> reads = new ArrayList<>();
    for (long key : keysUsed) {
      reads.add(read(key));
    }
    return reads;
  }

  @Override
  public List<Query> auditQueries() {
    final List<Query> queries = new ArrayList<>();
    for (long key : keysUsed) {
      queries.add(new Query("RegisterWrites", key));
    }
    return queries;
  }

  /** Per key used, in key order: its value, then every write recorded on it. */
  @Override
  public List<Query> stateQueries() {
    final List<Query> queries = new ArrayList<>();
    for (long key : keysUsed) {
      queries.add(new Query("RegisterRead", key));
      queries.add(new Query("RegisterWrites", key));
    }
    return queries;
  }

  private static Operation read(long key) {
    return Operation.read("read", Long.toString(key), "RegisterRead", new Object[] {key},
        Results::firstValueOrNull);
  }
}
