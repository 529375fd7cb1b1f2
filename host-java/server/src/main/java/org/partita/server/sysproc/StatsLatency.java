package org.partita.server.sysproc;

import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.stats.ProcedureFigures;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.stats.StatisticsInterval;
import org.partita.server.stats.StatisticsSnapshot;

/** {@code @Statistics LATENCY}: one row over every call of the period: count, latency in µs, throughput. */
final class StatsLatency implements StatisticsSelector {
  private final ProcedureStatistics statistics;
  private final StatisticsInterval interval;

  StatsLatency(ProcedureStatistics statistics) {
    this.statistics = statistics;
    this.interval = statistics.newInterval();
  }

  @Override
  public boolean answer(boolean sinceLastRead, ResponseHandler handler) {
    final StatisticsSnapshot snapshot = sinceLastRead ? interval.read() : statistics.sinceStart();
    final ProcedureFigures all = snapshot.total();
    handler.onResponse(Answers.table(new ResultTableBuilder()
        .column("INVOCATIONS", ValueType.BIGINT)
        .column("P50_LATENCY_US", ValueType.BIGINT)
        .column("P95_LATENCY_US", ValueType.BIGINT)
        .column("P99_LATENCY_US", ValueType.BIGINT)
        .column("P999_LATENCY_US", ValueType.BIGINT)
        .column("MAX_LATENCY_US", ValueType.BIGINT)
        .column("THROUGHPUT_PER_SECOND", ValueType.FLOAT)
        .column("PERIOD_SECONDS", ValueType.FLOAT)
        .column("FAILURES", ValueType.BIGINT)
        .column("MIN_LATENCY_US", ValueType.BIGINT)
        .column("AVG_LATENCY_US", ValueType.FLOAT)
        .row(all.invocations(), all.p50Micros(), all.p95Micros(), all.p99Micros(), all.p999Micros(),
            all.maxMicros(), snapshot.throughputPerSecond(), snapshot.periodNanos() / 1e9, all.failures(),
            all.minMicros(), all.avgMicros())
        .build()));
    return true;
  }
}
