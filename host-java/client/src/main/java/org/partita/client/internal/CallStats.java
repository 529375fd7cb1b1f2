package org.partita.client.internal;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.partita.client.CallStatistics;
import org.partita.client.ClientResponse.Status;
import org.partita.client.LatencySummary;

/**
 * The counters and latency recorder of one procedure (or of the total, the
 * {@code parent} of every procedure's). Recording is lock-free
 * (LongAdder, HdrHistogram Recorder) from any thread; {@link #snapshot} is
 * synchronized and folds the recorder's interval into an accumulating
 * histogram, so snapshots without reset see everything since the last reset.
 */
public final class CallStats {
  /** Latencies are recorded in µs between 1 µs and one hour, 3 significant digits. */
  static final long MAX_MICROS = 3_600_000_000L;
  private static final int DIGITS = 3;
  private static final Status[] STATUSES = Status.values();

  private final String name;
  private final CallStats parent;
  private final LongAdder calls = new LongAdder();
  private final LongAdder successes = new LongAdder();
  private final LongAdder[] failures = new LongAdder[STATUSES.length];
  private final LongAdder timeouts = new LongAdder();
  private final LongAdder losses = new LongAdder();
  private final LongAdder rejected = new LongAdder();
  private final Recorder recorder = new Recorder(1, MAX_MICROS, DIGITS);
  private final Histogram sinceReset = new Histogram(1, MAX_MICROS, DIGITS);
  private Histogram recycled;

  public CallStats(String name, CallStats parent) {
    this.name = name;
    this.parent = parent;
    for (int i = 0; i < failures.length; i++) {
      failures[i] = new LongAdder();
    }
  }

  public void started() {
    calls.increment();
    if (parent != null) {
      parent.started();
    }
  }

  /** The server answered with {@code status} after {@code nanos}. */
  public void answered(Status status, long nanos) {
    if (status == Status.SUCCESS) {
      successes.increment();
    } else {
      failures[status.ordinal()].increment();
    }
    recorder.recordValue(Math.max(1, Math.min(MAX_MICROS, nanos / 1000)));
    if (parent != null) {
      parent.answered(status, nanos);
    }
  }

  public void failed(Outcome outcome) {
    switch (outcome) {
      case TIMEOUT -> timeouts.increment();
      case CONNECTION_LOST -> losses.increment();
      case REJECTED_BY_CLIENT -> rejected.increment();
    }
    if (parent != null) {
      parent.failed(outcome);
    }
  }

  /** This procedure's statistics over {@code intervalNanos}; with {@code reset}, counting restarts from zero. */
  public synchronized CallStatistics snapshot(long intervalNanos, boolean reset) {
    recycled = recorder.getIntervalHistogram(recycled);
    sinceReset.add(recycled);
    final Map<Status, Long> byStatus = new EnumMap<>(Status.class);
    for (int i = 0; i < failures.length; i++) {
      final long n = read(failures[i], reset);
      if (n > 0) {
        byStatus.put(STATUSES[i], n);
      }
    }
    final long ok = read(successes, reset);
    final long answered = ok + byStatus.values().stream().mapToLong(Long::longValue).sum();
    final double seconds = Math.max(intervalNanos, 1) / 1e9;
    final CallStatistics s = new CallStatistics(name, read(calls, reset), ok, byStatus, read(timeouts, reset),
        read(losses, reset), read(rejected, reset), answered / seconds, summary(sinceReset));
    if (reset) {
      sinceReset.reset();
    }
    return s;
  }

  private static long read(LongAdder adder, boolean reset) {
    return reset ? adder.sumThenReset() : adder.sum();
  }

  private static LatencySummary summary(Histogram h) {
    if (h.getTotalCount() == 0) {
      return LatencySummary.EMPTY;
    }
    return new LatencySummary(h.getTotalCount(), h.getMean(), h.getValueAtPercentile(50), h.getValueAtPercentile(95),
        h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
  }

  /** How a call ended without an answer. */
  public enum Outcome {
    TIMEOUT,
    CONNECTION_LOST,
    REJECTED_BY_CLIENT
  }
}
