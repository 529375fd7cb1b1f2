package org.partita.server.stats;

import java.util.List;

/**
 * Procedure figures over one period: since the server started, or since the
 * previous read of a {@link StatisticsInterval}. Immutable.
 *
 * @param periodNanos length of the period
 * @param procedures one entry per procedure called in the period, by name
 *     (case-insensitive order)
 * @param total every call of the period, whatever the procedure
 */
public record StatisticsSnapshot(long periodNanos, List<ProcedureFigures> procedures, ProcedureFigures total) {
  public StatisticsSnapshot {
    procedures = List.copyOf(procedures);
  }

  /** Finished calls per second over the period (0 for an empty period). */
  public double throughputPerSecond() {
    return periodNanos <= 0 ? 0 : total.invocations() * 1e9 / periodNanos;
  }
}
