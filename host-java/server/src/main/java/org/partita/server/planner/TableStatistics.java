package org.partita.server.planner;

import java.util.Map;

/**
 * Row counts the join planner orders tables by: what the engine's table
 * statistics said when the statement was planned (ad-hoc SQL is planned when
 * it runs), or nothing for statements compiled ahead of time.
 *
 * <p>Implementations are immutable snapshots; thread-safe.
 */
@FunctionalInterface
public interface TableStatistics {
  /** No figures: every table gets {@link JoinOrder#DEFAULT_ROWS}. */
  TableStatistics UNKNOWN = table -> -1;

  /** The rows of {@code table} (its name in the catalog), or -1 when unknown. */
  long rowCount(String table);

  /** A snapshot of {@code rows} (table name to row count; absent = unknown). */
  static TableStatistics of(Map<String, Long> rows) {
    final Map<String, Long> copy = Map.copyOf(rows);
    return table -> copy.getOrDefault(table, -1L);
  }
}
