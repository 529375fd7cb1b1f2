package org.partita.client.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.partita.client.CallStatistics;
import org.partita.client.StatisticsSnapshot;

/**
 * Every procedure's {@link CallStats}, created on first call, and the total.
 * {@link #of} is lock-free; snapshots are serialized. Thread-safe.
 */
public final class StatsRegistry {
  private final CallStats total = new CallStats("*", null);
  private final ConcurrentHashMap<String, CallStats> byProcedure = new ConcurrentHashMap<>();
  private final LongAdder lateResponses = new LongAdder();
  private long intervalStart = System.nanoTime();

  /** The statistics of {@code procedure}, spelt as the caller spelt it. */
  public CallStats of(String procedure) {
    final CallStats s = byProcedure.get(procedure);
    return s != null ? s : byProcedure.computeIfAbsent(procedure, p -> new CallStats(p, total));
  }

  /** An answer matched no call in flight and was dropped. */
  public void lateResponse() {
    lateResponses.increment();
  }

  public synchronized StatisticsSnapshot snapshot(boolean reset) {
    final long now = System.nanoTime();
    final long interval = now - intervalStart;
    final Map<String, CallStatistics> procedures = new HashMap<>();
    byProcedure.forEach((name, stats) -> procedures.put(name, stats.snapshot(interval, reset)));
    final CallStatistics all = total.snapshot(interval, reset);
    final long late = reset ? lateResponses.sumThenReset() : lateResponses.sum();
    if (reset) {
      intervalStart = now;
    }
    return new StatisticsSnapshot(Duration.ofNanos(interval), all, procedures, late);
  }
}
