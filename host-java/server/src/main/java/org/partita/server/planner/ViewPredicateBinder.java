package org.partita.server.planner;

import org.partita.proto.Expression;
import org.partita.server.catalog.TableDef;

/** Binds a view's WHERE over its source table's row (no parameters allowed). */
public final class ViewPredicateBinder {
  private ViewPredicateBinder() {}

  public static Expression bind(TableDef source, net.sf.jsqlparser.expression.Expression where, String what)
      throws PlanningException {
    final Scope scope = new Scope();
    scope.addTable(source.name(), source);
    final ParameterTypes parameters = new ParameterTypes();
    final Expression bound = new ExpressionBinder(scope, parameters, null).bindCondition(where, "WHERE of " + what);
    if (parameters.count() > 0) {
      throw new PlanningException(what + ": a view's WHERE cannot use parameters");
    }
    if (usesCurrentTimestamp(bound)) {
      throw new PlanningException(what + ": a view's WHERE must be deterministic (no CURRENT_TIMESTAMP)");
    }
    return bound;
  }

  private static boolean usesCurrentTimestamp(Expression e) {
    if (e.getFunction() == org.partita.proto.Function.FUNCTION_CURRENT_TIMESTAMP) {
      return true;
    }
    return e.getChildrenList().stream().anyMatch(ViewPredicateBinder::usesCurrentTimestamp);
  }
}
