package org.partita.bench.kv;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts and latencies of completed operations, read in intervals (for the
 * progress lines) and accumulated over the measured window (for the report).
 * Operations are attributed to the interval in which they complete; those
 * completing outside the window (warm-up, or after its end) are left out of
 * the totals.
 *
 * <p>Thread model: {@code record*} from any thread, lock-free; the interval
 * and window methods are synchronized with each other.
 */
public final class Measurements {
  private static final long MAX_LATENCY_NANOS = TimeUnit.MINUTES.toNanos(5);

  private final Recorder latencies = new Recorder(MAX_LATENCY_NANOS, 3);
  private final LongAdder gets = new LongAdder();
  private final LongAdder puts = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final Histogram total = new Histogram(MAX_LATENCY_NANOS, 3);
  private Histogram recycled;
  private final long[] totals = new long[4];
  private boolean measuring;
  private long windowStart;
  private long windowEnd;

  /** A Get answered SUCCESS; {@code found} when it returned a row. */
  public void recordGet(long latencyNanos, boolean found) {
    latencies.recordValue(clamp(latencyNanos));
    gets.increment();
    if (!found) {
      misses.increment();
    }
  }

  /** A Put answered SUCCESS. */
  public void recordPut(long latencyNanos) {
    latencies.recordValue(clamp(latencyNanos));
    puts.increment();
  }

  /** A call answered with a failure status, or failed in the client. */
  public void recordFailure() {
    failed.increment();
  }

  /** Ends the current interval and returns what completed in it; added to the totals when measuring. */
  public synchronized IntervalStats interval() {
    final Histogram h = latencies.getIntervalHistogram(recycled);
    final IntervalStats stats = new IntervalStats(gets.sumThenReset(), puts.sumThenReset(),
        misses.sumThenReset(), failed.sumThenReset(), h.getValueAtPercentile(50), h.getValueAtPercentile(99));
    if (measuring) {
      total.add(h);
      totals[0] += stats.gets();
      totals[1] += stats.puts();
      totals[2] += stats.misses();
      totals[3] += stats.failed();
    }
    recycled = h;
    return stats;
  }

  /** Starts the measured window now: what completed before is dropped from the totals. */
  public synchronized IntervalStats openWindow() {
    final IntervalStats before = interval();
    measuring = true;
    windowStart = System.nanoTime();
    return before;
  }

  /** Ends the measured window now and returns the totals. */
  public synchronized WindowStats closeWindow() {
    final IntervalStats last = interval();
    measuring = false;
    windowEnd = System.nanoTime();
    return new WindowStats((windowEnd - windowStart) / 1e9, totals[0], totals[1], totals[2], totals[3],
        LatencyStats.of(total), last);
  }

  private static long clamp(long nanos) {
    return Math.max(0, Math.min(nanos, MAX_LATENCY_NANOS));
  }

  /** What completed in one interval; latencies in ns (0 when nothing completed). */
  public record IntervalStats(long gets, long puts, long misses, long failed, long p50Nanos, long p99Nanos) {
    public long operations() {
      return gets + puts + failed;
    }
  }

  /** The measured window's totals. */
  public record WindowStats(double seconds, long gets, long puts, long misses, long failed, LatencyStats latency,
      IntervalStats lastInterval) {
    /** Completed operations per second, failures included. */
    public double throughput() {
      return seconds > 0 ? (gets + puts + failed) / seconds : 0;
    }
  }
}
