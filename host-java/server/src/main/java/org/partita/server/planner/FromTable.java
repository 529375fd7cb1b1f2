package org.partita.server.planner;

import java.util.List;
import org.partita.proto.Expression;
import org.partita.proto.PlanNode;
import org.partita.server.catalog.TableDef;

/**
 * One table of a FROM clause: its columns occupy global row positions
 * {@code offset} .. {@code offset + width - 1}.
 *
 * @param leftJoin whether it is the right side of a LEFT [OUTER] JOIN
 * @param on the bound ON conjuncts (global positions); empty for none
 * @param derived for a subquery in FROM or a plain view: its plan, whose
 *     output {@code table} describes (no indexes, replicated); null for a
 *     table of the schema
 */
record FromTable(String qualifier, TableDef table, int offset, boolean leftJoin, List<Expression> on,
    PlanNode derived) {
  FromTable(String qualifier, TableDef table, int offset, boolean leftJoin, List<Expression> on) {
    this(qualifier, table, offset, leftJoin, on, null);
  }

  FromTable withJoin(boolean isLeftJoin, List<Expression> conditions) {
    return new FromTable(qualifier, table, offset, isLeftJoin, conditions, derived);
  }

  int width() {
    return table.columns().size();
  }

  int end() {
    return offset + width();
  }

  /** Whether {@code e} reads only this table's columns (and at least one). */
  boolean ownsAll(Expression e) {
    final java.util.BitSet cols = Exprs.columnsUsed(e);
    return !cols.isEmpty() && cols.nextSetBit(0) >= offset && cols.length() <= end();
  }

  /** Whether {@code e} reads any of this table's columns. */
  boolean touches(Expression e) {
    final java.util.BitSet cols = Exprs.columnsUsed(e);
    final int next = cols.nextSetBit(offset);
    return next >= 0 && next < end();
  }
}
