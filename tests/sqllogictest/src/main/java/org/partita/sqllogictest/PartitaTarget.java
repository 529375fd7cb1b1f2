package org.partita.sqllogictest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;
import org.partita.server.catalog.TableDef;
import org.partita.server.database.Database;

/** Runs sqllogictest statements as ad-hoc SQL on an in-process {@link Database}. */
final class PartitaTarget implements SqlTarget {
  private final int partitions;
  private final boolean partitionTables;
  // Written by the runner's worker; read by cancel() on the runner's timer thread.
  private volatile Database database;

  PartitaTarget(int partitions, boolean partitionTables) {
    this.partitions = partitions;
    this.partitionTables = partitionTables;
  }

  @Override
  public StatementResult execute(String sql) {
    final ClientResponse response = database().adHocSync(sql);
    if (!response.ok()) {
      return StatementResult.error(response.errorName() + ": " + response.message());
    }
    if (partitionTables && sql.stripLeading().toUpperCase(Locale.ROOT).startsWith("CREATE TABLE")) {
      final StatementResult partitioned = partitionNewTables();
      if (partitioned != null) {
        return partitioned;
      }
    }
    if (response.results().isEmpty()) {
      return StatementResult.ok();
    }
    return StatementResult.rows(rows(response.results().get(0)));
  }

  /** Partitions every replicated table on its first column; an error if one cannot be. */
  private StatementResult partitionNewTables() {
    for (TableDef table : database.catalog().schema().tables()) {
      if (table.isView() || !table.isReplicated()) {
        continue;
      }
      final ClientResponse r = database.adHocSync("PARTITION TABLE \"" + table.name() + "\" ON COLUMN \""
          + table.columns().get(0).name() + "\"");
      if (!r.ok()) {
        return StatementResult.error("cannot partition " + table.name() + ": " + r.message());
      }
    }
    return null;
  }

  private static ResultRows rows(ResultTable table) {
    final List<ValueType> types = new ArrayList<>();
    for (int c = 0; c < table.columnCount(); c++) {
      types.add(table.columnType(c));
    }
    final List<List<Object>> rows = new ArrayList<>();
    table.resetRowPosition();
    while (table.advanceRow()) {
      final List<Object> row = new ArrayList<>(table.columnCount());
      for (int c = 0; c < table.columnCount(); c++) {
        row.add(value(table, c, types.get(c)));
      }
      rows.add(row);
    }
    return new ResultRows(types, rows);
  }

  private static Object value(ResultTable table, int column, ValueType type) {
    final Object v = switch (type) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, TIMESTAMP -> table.getLong(column);
      case FLOAT -> table.getDouble(column);
      case DECIMAL -> table.getDecimal(column);
      case VARCHAR -> table.getString(column);
      case VARBINARY -> table.getBytes(column);
      case BOOLEAN -> table.getLong(column) != 0;
      default -> table.getObject(column);
    };
    return table.wasNull() ? null : v;
  }

  /**
   * Cancels the running statement through the database ({@code @CancelQuery}'s
   * path: the in-process client's running calls); it is rolled back and
   * answered CANCELLED. Returns false when no statement was running.
   */
  @Override
  public boolean cancel() {
    final Database running = database;
    return running != null && !running.cancelClient(Database.IN_PROCESS_CLIENT).isEmpty();
  }

  private Database database() {
    if (database == null) {
      reset();
    }
    return database;
  }

  @Override
  public void reset() {
    close();
    try {
      database = Database.openEmpty(partitions);
    } catch (Exception e) {
      throw new IllegalStateException("cannot open an in-process database: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (database == null) {
      return;
    }
    try {
      database.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    database = null;
  }
}
