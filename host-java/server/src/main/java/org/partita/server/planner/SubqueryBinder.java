package org.partita.server.planner;

import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.PlanNode;
import org.partita.proto.SubqueryKind;
import org.partita.proto.ValueType;

/**
 * Binds a subquery in an expression — {@code (SELECT ...)}, {@code EXISTS
 * (SELECT ...)}, {@code x IN (SELECT ...)} — into a SUBQUERY expression: the
 * subquery is planned as its own SELECT block whose names fall back to the
 * enclosing query's ({@link OuterReferences}), and the enclosing values it
 * reads become the expression's arguments.
 */
final class SubqueryBinder {
  private SubqueryBinder() {}

  /** The single SELECT block inside (possibly nested) parentheses. */
  static PlainSelect select(net.sf.jsqlparser.expression.Expression e) throws PlanningException {
    net.sf.jsqlparser.expression.Expression inner = e;
    while (inner instanceof ParenthesedSelect p) {
      inner = p.getSelect();
    }
    if (inner instanceof PlainSelect plain) {
      return plain;
    }
    throw new PlanningException("only a single SELECT is supported as a subquery (no UNION, INTERSECT, EXCEPT,"
        + " VALUES or WITH): " + e);
  }

  /**
   * The SUBQUERY expression for {@code select} of {@code kind}, bound in
   * {@code binder}'s context; {@code tested} is the left side of IN (else
   * null).
   */
  static Expression bind(ExpressionBinder binder, Select select, SubqueryKind kind, Expression tested,
      ValueType hint) throws PlanningException {
    final SubqueryContext context = binder.subqueries();
    if (context == null) {
      throw new PlanningException("subqueries are not supported here: " + select);
    }
    final OuterReferences outer = new OuterReferences(binder);
    final SelectParts parts =
        new SelectPlanner(context.schema(), binder.parameters(), context, outer).plan(select(select));
    final PlanNode plan = context.assembleSubquery(parts);
    if (kind != SubqueryKind.SUBQUERY_KIND_EXISTS && parts.visible() != 1) {
      throw new PlanningException("a subquery used as a value must return one column, not " + parts.visible()
          + ": " + select);
    }
    ValueType type = ValueType.VALUE_TYPE_BOOLEAN;
    if (kind != SubqueryKind.SUBQUERY_KIND_EXISTS) {
      type = plan.getOutputSchema(0).getType();
    }
    if (kind == SubqueryKind.SUBQUERY_KIND_IN) {
      ExpressionBinder.coerceComparable(tested, Exprs.column(0, type), "IN " + select);
      type = ValueType.VALUE_TYPE_BOOLEAN;
    }
    final Expression.Builder out = Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_SUBQUERY)
        .setValueType(type)
        .setSubqueryKind(kind)
        .setSubquery(plan);
    if (tested != null) {
      out.addChildren(tested);
    }
    return out.addAllChildren(outer.arguments()).build();
  }
}
