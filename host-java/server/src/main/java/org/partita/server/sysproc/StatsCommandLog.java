package org.partita.server.sysproc;

import java.util.function.Supplier;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics COMMANDLOG}: one row, the command log's mode and its
 * figures since it opened ({@link LogFigures}): records, bytes, syncs, the
 * largest and mean group (records per sync), the longest fdatasync, the
 * percentiles of a batch's write and sync, and async throttling; all zero
 * and mode OFF without a log. The interval flag does not apply.
 */
final class StatsCommandLog implements StatisticsSelector {
  private final Supplier<LogFigures> figures;

  StatsCommandLog(Supplier<LogFigures> figures) {
    this.figures = figures;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    final LogFigures f = figures.get();
    handler.onResponse(Answers.table(new ResultTableBuilder()
        .column("MODE", ValueType.VARCHAR)
        .column("RECORDS", ValueType.BIGINT)
        .column("BYTES", ValueType.BIGINT)
        .column("SYNCS", ValueType.BIGINT)
        .column("LARGEST_BATCH", ValueType.BIGINT)
        .column("LONGEST_SYNC_MICROS", ValueType.BIGINT)
        .column("THROTTLED_MICROS", ValueType.BIGINT)
        .column("MEAN_BATCH", ValueType.FLOAT)
        .column("SYNC_P50_MICROS", ValueType.BIGINT)
        .column("SYNC_P99_MICROS", ValueType.BIGINT)
        .column("SYNC_P999_MICROS", ValueType.BIGINT)
        .row(f.mode(), f.records(), f.bytes(), f.syncs(), f.largestBatch(), f.longestSyncNanos() / 1000,
            f.throttledNanos() / 1000, f.meanBatch(), f.syncP50Micros(), f.syncP99Micros(), f.syncP999Micros())
        .build()));
    return true;
  }
}
