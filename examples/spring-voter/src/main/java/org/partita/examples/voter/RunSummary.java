package org.partita.examples.voter;

import java.util.List;

/**
 * How a run went: calls answered, their rate, and whether the firehose's
 * tally of accepted votes agrees with what Results gained meanwhile, per
 * contestant and in total. Immutable; written as JSON to voter.result-file.
 *
 * @param seconds how long the firehose voted
 * @param calls Vote calls answered (any outcome)
 * @param callsPerSecond calls / seconds
 * @param accepted votes accepted
 * @param failed calls that failed (their outcome is unknown, so the check cannot pass)
 * @param consistent whether every line agrees and nothing failed
 * @param lines one line per compared figure
 */
public record RunSummary(double seconds, long calls, double callsPerSecond, long accepted, long failed,
    boolean consistent, List<String> lines) {
  public RunSummary {
    lines = List.copyOf(lines);
  }

  /** The final line the run prints. */
  public String finalLine() {
    return String.format("spring-voter: %,d Vote calls in %.1f s = %,.0f calls/s (accepted %,d, failed %,d);"
        + " consistency with Results: %s", calls, seconds, callsPerSecond, accepted, failed,
        consistent ? "OK" : "FAILED");
  }
}
