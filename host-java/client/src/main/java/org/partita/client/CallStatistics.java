package org.partita.client;

import java.util.Map;

/**
 * What happened to the calls of one procedure (or of all procedures) in an
 * interval. Immutable.
 *
 * @param procedure the procedure name as the caller spelt it, or "*" for the total
 * @param calls calls started (parameters accepted)
 * @param successes answers with status SUCCESS
 * @param failures answers with any other status, by status (only statuses that occurred)
 * @param timeouts calls failed with CallTimeoutException
 * @param connectionLosses calls failed with ConnectionLostException
 * @param rejectedByClient calls the client never sent (no connection, backpressure, frame too large)
 * @param answersPerSecond answers (successes and failures) per second over the interval
 * @param latency round-trip latency of the answered calls
 */
public record CallStatistics(String procedure, long calls, long successes, Map<ClientResponse.Status, Long> failures,
    long timeouts, long connectionLosses, long rejectedByClient, double answersPerSecond, LatencySummary latency) {
  public CallStatistics {
    failures = Map.copyOf(failures);
  }

  /** All answers other than SUCCESS. */
  public long failureCount() {
    long n = 0;
    for (long v : failures.values()) {
      n += v;
    }
    return n;
  }

  /** Failures with {@code status} (0 when none). */
  public long failures(ClientResponse.Status status) {
    return failures.getOrDefault(status, 0L);
  }

  @Override
  public String toString() {
    return String.format("%s: calls=%d ok=%d failed=%d timeouts=%d lost=%d rejected=%d %.0f/s %s", procedure, calls,
        successes, failureCount(), timeouts, connectionLosses, rejectedByClient, answersPerSecond, latency);
  }
}
