package org.partita.server.stats;

import org.HdrHistogram.Histogram;
import org.partita.client.ClientResponse.Status;

/**
 * What one procedure (or, for the total, every procedure) did over a period:
 * calls by outcome and latency in µs. Latency percentiles, minimum and maximum
 * come from a histogram with two significant digits (within 1%); the average
 * is exact. Latency figures are 0 when there were no calls. Immutable.
 *
 * @param name the procedure's name as first called (the total is named "(ALL)")
 * @param invocations calls that finished, whatever their outcome
 * @param userAborts calls the procedure aborted (USER_ABORT)
 * @param gracefulFailures calls rolled back by a SQL or constraint error
 * @param rejected calls not run (unknown procedure, bad parameters, shutting down)
 * @param unexpectedFailures calls that failed on an unexpected server error
 * @param minMicros fastest call
 * @param avgMicros mean latency
 * @param p50Micros median latency
 * @param p95Micros 95th percentile
 * @param p99Micros 99th percentile
 * @param p999Micros 99.9th percentile
 * @param maxMicros slowest call
 */
public record ProcedureFigures(String name, long invocations, long userAborts, long gracefulFailures, long rejected,
    long unexpectedFailures, long minMicros, double avgMicros, long p50Micros, long p95Micros, long p99Micros,
    long p999Micros, long maxMicros) {

  /** The name of the total over every procedure. */
  public static final String ALL = "(ALL)";

  /** Calls that did not succeed. */
  public long failures() {
    return userAborts + gracefulFailures + rejected + unexpectedFailures;
  }

  /** Figures from call counts per status (by ordinal), the latency sum and the latency histogram. */
  static ProcedureFigures of(String name, long[] calls, long totalNanos, Histogram latencies) {
    long invocations = 0;
    for (long c : calls) {
      invocations += c;
    }
    final boolean any = latencies.getTotalCount() > 0;
    return new ProcedureFigures(name, invocations,
        calls[Status.USER_ABORT.ordinal()], calls[Status.GRACEFUL_FAILURE.ordinal()],
        calls[Status.REJECTED.ordinal()], calls[Status.UNEXPECTED_FAILURE.ordinal()],
        any ? latencies.getMinValue() : 0,
        invocations == 0 ? 0 : totalNanos / 1000.0 / invocations,
        percentile(latencies, 50), percentile(latencies, 95), percentile(latencies, 99),
        percentile(latencies, 99.9), any ? latencies.getMaxValue() : 0);
  }

  private static long percentile(Histogram h, double p) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p);
  }
}
