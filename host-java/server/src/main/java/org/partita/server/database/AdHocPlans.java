package org.partita.server.database;

import java.util.LinkedHashMap;
import java.util.Map;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;

/**
 * The plans of recently run ad-hoc statements, by SQL text, so that a
 * statement sent again (a dashboard's query, a script's parameterised
 * INSERT) is not parsed and planned again: planning costs about a
 * millisecond, running a planned point query a few microseconds. An entry
 * is valid only for the catalog it was planned against; a schema change
 * makes every older entry miss. At most {@link #CAPACITY} entries, least
 * recently used first out. Thread-safe.
 */
final class AdHocPlans {
  static final int CAPACITY = 1024;

  private record Entry(CompiledCatalog catalog, ExecutableStatement statement) {}

  private final Map<String, Entry> plans = new LinkedHashMap<>(64, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
      return size() > CAPACITY;
    }
  };

  /** The statement for {@code sql} planned against {@code catalog}, from the cache or planned now. */
  ExecutableStatement plan(String sql, CompiledCatalog catalog) throws PlanningException {
    synchronized (plans) {
      final Entry hit = plans.get(sql);
      if (hit != null && hit.catalog == catalog) {
        return hit.statement;
      }
    }
    final ExecutableStatement statement = ExecutableStatement.adHoc(new SqlPlanner(catalog.schema()).plan(sql, false));
    synchronized (plans) {
      plans.put(sql, new Entry(catalog, statement));
    }
    return statement;
  }

  int size() {
    synchronized (plans) {
      return plans.size();
    }
  }
}
