package org.partita.bench.voter.driver;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Round-trip latencies of Vote calls in µs (1 µs to 1 hour, 3 significant
 * digits): per progress interval, and over the measured period.
 *
 * <p>Thread model: {@link #record} is lock-free from any thread; the
 * reading methods are synchronized (the progress thread and the driver's
 * main thread).
 */
final class Latencies {
  private static final long MAX_MICROS = 3_600_000_000L;
  private static final int DIGITS = 3;

  private final Recorder recorder = new Recorder(1, MAX_MICROS, DIGITS);
  private final Histogram measured = new Histogram(1, MAX_MICROS, DIGITS);
  private Histogram interval;
  private boolean measuring;

  /** Records one answered call that took {@code nanos}. */
  void record(long nanos) {
    recorder.recordValue(Math.max(1, Math.min(MAX_MICROS, nanos / 1000)));
  }

  /** The calls recorded since the last interval; during the measured period they also count towards it. */
  synchronized Histogram interval() {
    interval = recorder.getIntervalHistogram(interval);
    if (measuring) {
      measured.add(interval);
    }
    return interval;
  }

  /** Starts the measured period: what was recorded so far (the warm-up) is left out of it. */
  synchronized void startMeasuring() {
    interval = recorder.getIntervalHistogram(interval);
    measured.reset();
    measuring = true;
  }

  /** Ends the measured period and returns a copy of its histogram. */
  synchronized Histogram finish() {
    interval();
    measuring = false;
    return measured.copy();
  }
}
