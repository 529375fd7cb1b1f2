package org.partita.bench.kv;

import org.HdrHistogram.Histogram;

/** A latency distribution summed up, in milliseconds. Immutable. */
public record LatencyStats(long count, double avgMs, double p50Ms, double p95Ms, double p99Ms, double p999Ms,
    double maxMs) {
  private static final double NANOS_PER_MS = 1e6;

  /** The summary of {@code h}, whose values are nanoseconds. */
  public static LatencyStats of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new LatencyStats(0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencyStats(h.getTotalCount(), h.getMean() / NANOS_PER_MS, ms(h.getValueAtPercentile(50)),
        ms(h.getValueAtPercentile(95)), ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)),
        ms(h.getMaxValue()));
  }

  private static double ms(long nanos) {
    return nanos / NANOS_PER_MS;
  }
}
