package org.partita.server.stats;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Latencies of one procedure in µs, recorded by many threads without a
 * shared hot spot: each thread writes to one of a few HdrHistogram
 * {@link Recorder}s chosen by its thread id (site threads get distinct
 * stripes), and a reader drains them all.
 *
 * <p>Values keep {@value #SIGNIFICANT_DIGITS} significant digits (within 1%).
 * Histograms grow to the largest value recorded, so a procedure that is fast
 * costs little memory.
 *
 * <p>Thread model: {@link #record} from any thread, wait-free; {@link #drainInto}
 * from one reader at a time (the owner serializes readers).
 */
final class LatencyRecorder {
  static final int SIGNIFICANT_DIGITS = 2;
  private static final int MAX_STRIPES = 8;

  private final Recorder[] stripes;
  // Reader-confined: the histograms last returned by each stripe, reused.
  private final Histogram[] recycled;
  private final int mask;

  LatencyRecorder() {
    final int count = Math.min(MAX_STRIPES, Integer.highestOneBit(
        Math.max(1, Runtime.getRuntime().availableProcessors() * 2 - 1)));
    stripes = new Recorder[count];
    recycled = new Histogram[count];
    for (int i = 0; i < count; i++) {
      stripes[i] = new Recorder(SIGNIFICANT_DIGITS);
    }
    mask = count - 1;
  }

  /** Records one latency; negative values count as 0. */
  @SuppressWarnings("deprecation")  // Thread.getId: threadId() needs Java 19
  void record(long micros) {
    stripes[(int) Thread.currentThread().getId() & mask].recordValue(Math.max(0, micros));
  }

  /** Adds everything recorded since the previous drain to {@code target}. */
  void drainInto(Histogram target) {
    for (int i = 0; i < stripes.length; i++) {
      recycled[i] = stripes[i].getIntervalHistogram(recycled[i]);
      target.add(recycled[i]);
    }
  }
}
