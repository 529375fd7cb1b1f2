package org.partita.client;

/**
 * Round-trip latencies of the calls the server answered in an interval, in
 * microseconds (from handing the call to the connection to reading its
 * answer), as HdrHistogram percentiles with 3 significant digits. All zero
 * when no call was answered. Immutable.
 */
public record LatencySummary(long count, double meanMicros, long p50Micros, long p95Micros, long p99Micros,
    long p999Micros, long maxMicros) {
  public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0);

  @Override
  public String toString() {
    return String.format("n=%d mean=%.1fus p50=%dus p95=%dus p99=%dus p99.9=%dus max=%dus", count, meanMicros,
        p50Micros, p95Micros, p99Micros, p999Micros, maxMicros);
  }
}
