package org.partita.server.sysproc;

import java.util.List;
import java.util.function.LongSupplier;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.database.Database;
import org.partita.server.database.Database.PartitionStatus;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics PARTITION}: one row per partition (queue depth and
 * capacity, share of the period its site thread was busy, tasks run in the
 * period), then one row with PARTITION_ID -1 for the coordinator's queue of
 * multi-partition work (busy and tasks NULL). The period starts when the
 * system procedures were created (server start), or at the previous interval
 * read.
 */
final class StatsPartitions implements StatisticsSelector {
  /** The PARTITION_ID of the coordinator's row. */
  static final int COORDINATOR = -1;

  private final Database database;
  private final LongSupplier nanoClock;
  private final Baseline start;
  // Guarded by this.
  private Baseline previousInterval;

  /** Partition figures at one moment. */
  private record Baseline(long atNanos, List<PartitionStatus> statuses) {}

  StatsPartitions(Database database, LongSupplier nanoClock) {
    this.database = database;
    this.nanoClock = nanoClock;
    this.start = new Baseline(nanoClock.getAsLong(), database.partitionStatuses());
    this.previousInterval = start;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    final Baseline now = new Baseline(nanoClock.getAsLong(), database.partitionStatuses());
    final Baseline since;
    synchronized (this) {
      since = interval ? previousInterval : start;
      if (interval) {
        previousInterval = now;
      }
    }
    final double period = Math.max(1, now.atNanos() - since.atNanos());
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("QUEUE_DEPTH", ValueType.INTEGER)
        .column("QUEUE_CAPACITY", ValueType.INTEGER)
        .column("BUSY_PERCENT", ValueType.FLOAT)
        .column("TASKS_RUN", ValueType.BIGINT)
        .column("PERIOD_SECONDS", ValueType.FLOAT);
    for (int p = 0; p < now.statuses().size(); p++) {
      final PartitionStatus current = now.statuses().get(p);
      final PartitionStatus before = since.statuses().get(p);
      final double busy = (current.busyNanos() - before.busyNanos()) * 100.0 / period;
      table.row(current.partition(), current.queueDepth(), current.queueCapacity(), Math.min(100.0, Math.max(0, busy)),
          current.tasksRun() - before.tasksRun(), period / 1e9);
    }
    table.row(COORDINATOR, database.coordinatorBacklog(), database.coordinatorCapacity(), null, null, period / 1e9);
    handler.onResponse(Answers.table(table.build()));
    return true;
  }
}
