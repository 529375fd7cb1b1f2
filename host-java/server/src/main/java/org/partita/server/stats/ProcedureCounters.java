package org.partita.server.stats;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.partita.client.ClientResponse.Status;

/**
 * The running figures of one procedure: a call count per status, the sum of
 * latencies and their histogram.
 *
 * <p>Thread model: {@link #record} from any thread without locks or
 * allocation; the {@code sinceStart} histogram and {@link #drain} belong to
 * the reader, which {@link ProcedureStatistics} serializes.
 */
final class ProcedureCounters {
  private final String name;
  private final LongAdder[] callsByStatus = new LongAdder[Status.values().length];
  private final LongAdder totalNanos = new LongAdder();
  private final LatencyRecorder latency = new LatencyRecorder();
  // Reader-confined: every latency drained so far.
  private final Histogram sinceStart = new Histogram(LatencyRecorder.SIGNIFICANT_DIGITS);

  ProcedureCounters(String name) {
    this.name = name;
    for (int i = 0; i < callsByStatus.length; i++) {
      callsByStatus[i] = new LongAdder();
    }
  }

  String name() {
    return name;
  }

  void record(Status status, long nanos) {
    latency.record(nanos / 1000);
    totalNanos.add(Math.max(0, nanos));
    callsByStatus[status.ordinal()].increment();
  }

  /**
   * Moves recorded latencies into the since-start histogram and returns the
   * current totals. REQUIRES: the caller is the (serialized) reader.
   */
  Totals drain() {
    latency.drainInto(sinceStart);
    final long[] calls = new long[callsByStatus.length];
    for (int i = 0; i < calls.length; i++) {
      calls[i] = callsByStatus[i].sum();
    }
    return new Totals(calls, totalNanos.sum(), sinceStart);
  }

  /**
   * Cumulative figures at one read: calls per status (by ordinal), latency
   * sum, and the latency histogram (the live since-start one: copy it to keep it).
   */
  record Totals(long[] calls, long totalNanos, Histogram latencies) {}
}
