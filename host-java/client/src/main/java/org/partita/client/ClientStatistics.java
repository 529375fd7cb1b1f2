package org.partita.client;

import org.partita.client.internal.StatsRegistry;

/**
 * The live statistics of a {@link PartitaClient}: per procedure and in
 * total, calls, outcomes and round-trip latency. Recording is lock-free and
 * cheap; reading takes a consistent-enough snapshot (counters read one by
 * one while calls continue). Thread-safe.
 *
 * <pre>{@code
 * StatisticsSnapshot s = client.statistics().snapshotAndReset();   // every 5 s, say
 * System.out.println(s.total().answersPerSecond() + " calls/s, p99 " + s.total().latency().p99Micros() + " us");
 * }</pre>
 */
public final class ClientStatistics {
  private final StatsRegistry registry;

  ClientStatistics(StatsRegistry registry) {
    this.registry = registry;
  }

  /** The statistics since the client started or since the last reset; resets nothing. */
  public StatisticsSnapshot snapshot() {
    return registry.snapshot(false);
  }

  /** The statistics since the client started or since the last reset, and starts a new interval. */
  public StatisticsSnapshot snapshotAndReset() {
    return registry.snapshot(true);
  }
}
