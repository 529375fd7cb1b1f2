package org.partita.server.sysproc;

import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.stats.ProcedureFigures;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.stats.StatisticsInterval;
import org.partita.server.stats.StatisticsSnapshot;

/**
 * {@code @Statistics PROCEDURE}: one row per procedure called in the period
 * (system procedures included): calls by outcome and latency in µs.
 */
final class StatsProcedures implements StatisticsSelector {
  private final ProcedureStatistics statistics;
  private final StatisticsInterval interval;

  StatsProcedures(ProcedureStatistics statistics) {
    this.statistics = statistics;
    this.interval = statistics.newInterval();
  }

  @Override
  public boolean answer(boolean sinceLastRead, ResponseHandler handler) {
    final StatisticsSnapshot snapshot = sinceLastRead ? interval.read() : statistics.sinceStart();
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PROCEDURE_NAME", ValueType.VARCHAR)
        .column("INVOCATIONS", ValueType.BIGINT)
        .column("FAILURES", ValueType.BIGINT)
        .column("USER_ABORTS", ValueType.BIGINT)
        .column("GRACEFUL_FAILURES", ValueType.BIGINT)
        .column("REJECTED", ValueType.BIGINT)
        .column("UNEXPECTED_FAILURES", ValueType.BIGINT)
        .column("MIN_LATENCY_US", ValueType.BIGINT)
        .column("AVG_LATENCY_US", ValueType.FLOAT)
        .column("P50_LATENCY_US", ValueType.BIGINT)
        .column("P95_LATENCY_US", ValueType.BIGINT)
        .column("P99_LATENCY_US", ValueType.BIGINT)
        .column("P999_LATENCY_US", ValueType.BIGINT)
        .column("MAX_LATENCY_US", ValueType.BIGINT);
    for (ProcedureFigures f : snapshot.procedures()) {
      table.row(f.name(), f.invocations(), f.failures(), f.userAborts(), f.gracefulFailures(), f.rejected(),
          f.unexpectedFailures(), f.minMicros(), f.avgMicros(), f.p50Micros(), f.p95Micros(), f.p99Micros(),
          f.p999Micros(), f.maxMicros());
    }
    handler.onResponse(Answers.table(table.build()));
    return true;
  }
}
