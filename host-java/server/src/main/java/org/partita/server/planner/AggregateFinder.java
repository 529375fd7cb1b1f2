package org.partita.server.planner;

import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.statement.select.Select;

/** Finds aggregate calls in a parsed expression (not inside subqueries). */
final class AggregateFinder extends ExpressionVisitorAdapter {
  static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG");

  private boolean found;

  static boolean contains(net.sf.jsqlparser.expression.Expression e) {
    if (e == null) {
      return false;
    }
    final AggregateFinder finder = new AggregateFinder();
    e.accept(finder);
    return finder.found;
  }

  static boolean isAggregateName(String name) {
    return AGGREGATES.contains(name.toUpperCase(Locale.ROOT));
  }

  @Override
  public void visit(Function function) {
    if (isAggregateName(function.getName()) && (function.isAllColumns() || function.getParameters() == null
        || function.getParameters().size() == 1)) {
      found = true;
      return;
    }
    super.visit(function);
  }

  @Override
  public void visit(Select select) {
    // A subquery's aggregates belong to it.
  }
}
