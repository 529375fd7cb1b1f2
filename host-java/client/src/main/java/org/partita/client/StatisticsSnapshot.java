package org.partita.client;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The client's statistics over one interval (since the client was made or
 * since the last {@link ClientStatistics#snapshotAndReset()}). Immutable.
 *
 * @param interval how long the interval lasted
 * @param total all procedures together
 * @param byProcedure one entry per procedure name called, sorted by name
 * @param lateResponses answers that matched no call in flight (most often a call that had timed out), dropped
 */
public record StatisticsSnapshot(Duration interval, CallStatistics total, Map<String, CallStatistics> byProcedure,
    long lateResponses) {
  public StatisticsSnapshot {
    byProcedure = Collections.unmodifiableMap(new TreeMap<>(byProcedure));
  }

  /** The statistics of {@code procedure} (as the caller spelt it), or null when it was not called. */
  public CallStatistics procedure(String procedure) {
    return byProcedure.get(procedure);
  }

  @Override
  public String toString() {
    final StringBuilder s = new StringBuilder("interval ").append(interval.toMillis()).append(" ms, ")
        .append(lateResponses).append(" late response(s)\n  ").append(total);
    byProcedure.values().forEach(p -> s.append("\n  ").append(p));
    return s.toString();
  }
}
