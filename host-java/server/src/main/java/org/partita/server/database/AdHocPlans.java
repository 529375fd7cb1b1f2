package org.partita.server.database;

import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;
import org.partita.server.planner.TableStatistics;

/**
 * The plans of recently run ad-hoc statements, by SQL text, so that a
 * statement sent again (a dashboard's query, a script's parameterised
 * INSERT) is not parsed and planned again: planning costs about a
 * millisecond, running a planned point query a few microseconds. An entry
 * is valid only for the catalog it was planned against; a schema change
 * makes every older entry miss, and so does a change of the tables' row
 * counts by a power of two ({@link RowCounts}). At most {@link #CAPACITY} entries, least
 * recently used first out. Thread-safe.
 */
final class AdHocPlans {
  static final int CAPACITY = 1024;

  private record Entry(CompiledCatalog catalog, long statsEpoch, ExecutableStatement statement) {}

  private final RowCounts rowCounts;
  private final Map<String, Entry> plans = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
      return size() > CAPACITY;
    }
  };

  /**
   * The statement for {@code sql} planned against {@code catalog}, its joins
   * ordered by the current row counts: from the cache when planned against the same
   * catalog and row-count epoch, or planned now.
   */
  ExecutableStatement plan(String sql, CompiledCatalog catalog) throws PlanningException {
    final RowCounts.Snapshot rows = snapshot(catalog);
    synchronized (plans) {
      final Entry hit = plans.get(sql);
      if (hit != null && hit.catalog == catalog && hit.statsEpoch == rows.epoch()) {
        return hit.statement;
      }
    }
    final ExecutableStatement statement = ExecutableStatement.adHoc(
        new SqlPlanner(catalog.schema(), rows.statistics()).plan(sql, false));
    synchronized (plans) {
      plans.put(sql, new Entry(catalog, rows.epoch(), statement));
    }
    return statement;
  }

  /** Plans ordering joins by {@code rowCounts} (null: by the planner's default row count). */
  AdHocPlans(RowCounts rowCounts) {
    this.rowCounts = rowCounts;
  }

  /** Plans ordering joins by the planner's default row count. */
  AdHocPlans() {
    this(null);
  }

  /** The row counts statements of {@code catalog} are planned with now. */
  TableStatistics rowCounts(CompiledCatalog catalog) {
    return snapshot(catalog).statistics();
  }

  private RowCounts.Snapshot snapshot(CompiledCatalog catalog) {
    return rowCounts == null ? RowCounts.NONE : rowCounts.current(catalog.schema());
  }

  int size() {
    synchronized (plans) {
      return plans.size();
    }
  }
}
