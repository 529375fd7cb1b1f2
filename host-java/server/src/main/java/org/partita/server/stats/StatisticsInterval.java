package org.partita.server.stats;

import java.util.IdentityHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A reader of procedure figures "since my previous read": each
 * {@link #read()} returns the calls finished since the one before and makes
 * now the start of the next period. Obtained from
 * {@link ProcedureStatistics#newInterval()}; readers do not affect each other.
 *
 * <p>Thread-safe (reads are serialized by the statistics' reader lock).
 */
public final class StatisticsInterval {
  private final ProcedureStatistics statistics;
  // Guarded by the statistics' reader lock: the cumulative figures at the previous read.
  private final Map<ProcedureCounters, ProcedureCounters.Totals> baselines = new IdentityHashMap<>();
  private long periodStartNanos;

  StatisticsInterval(ProcedureStatistics statistics, long startNanos) {
    this.statistics = statistics;
    this.periodStartNanos = startNanos;
  }

  /** Figures since the previous read (the first read: since the statistics started); starts a new period. */
  public StatisticsSnapshot read() {
    return statistics.read(this);
  }

  /**
   * The figures of {@code counters} since the previous read, given its
   * cumulative figures now, or null when it had no call in the period; now
   * becomes the baseline.
   */
  ProcedureCounters.Totals advance(ProcedureCounters counters, ProcedureCounters.Totals now) {
    final ProcedureCounters.Totals before = baselines.get(counters);
    final Histogram latencies = now.latencies().copy();
    baselines.put(counters, new ProcedureCounters.Totals(now.calls().clone(), now.totalNanos(), latencies));
    final long[] calls = now.calls().clone();
    final Histogram delta = latencies.copy();
    long nanos = now.totalNanos();
    if (before != null) {
      for (int i = 0; i < calls.length; i++) {
        calls[i] -= before.calls()[i];
      }
      nanos -= before.totalNanos();
      delta.subtract(before.latencies());
    }
    long count = 0;
    for (long c : calls) {
      count += c;
    }
    return count == 0 ? null : new ProcedureCounters.Totals(calls, nanos, delta);
  }

  /** Ends the period at {@code nowNanos}; returns its length. */
  long restart(long nowNanos) {
    final long length = nowNanos - periodStartNanos;
    periodStartNanos = nowNanos;
    return length;
  }
}
