package org.partita.server.planner;

import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;

/**
 * Flags statements whose result is not fixed by the data: a LIMIT or OFFSET
 * without ORDER BY picks an arbitrary subset of rows. A procedure that writes
 * based on such a result could act differently on a replica.
 */
public final class Determinism {
  private Determinism() {}

  /** Why {@code sql} is not deterministic, or null when it is. */
  public static String problem(String sql) {
    final Statement statement;
    try {
      statement = SqlPlanner.parse(sql);
    } catch (PlanningException e) {
      return null;
    }
    if (statement instanceof PlainSelect select
        && (select.getLimit() != null || select.getOffset() != null)
        && (select.getOrderByElements() == null || select.getOrderByElements().isEmpty())) {
      return "LIMIT/OFFSET without ORDER BY returns an arbitrary subset of rows";
    }
    return null;
  }
}
