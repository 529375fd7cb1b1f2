package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.MinusOp;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import org.partita.proto.Expression;
import org.partita.proto.OutputColumn;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.SetOperationKind;
import org.partita.proto.SetOperationNode;
import org.partita.proto.SortKey;
import org.partita.proto.ValueType;
import org.partita.server.catalog.Schema;

/**
 * Plans {@code q1 UNION [ALL] q2 INTERSECT q3 EXCEPT ...} with an optional
 * ORDER BY (by position or by a name of the first query's columns) and
 * LIMIT/OFFSET. INTERSECT binds tighter than UNION and EXCEPT, which apply
 * left to right (standard SQL). Each column's type is the common type of the
 * queries' columns; a query whose column differs is cast to it. Each query is
 * a block planned like a subquery (see {@link SubqueryContext}), so the whole
 * runs in one place.
 */
final class SetOperationPlanner {
  private final Schema schema;
  private final ParameterTypes parameters;
  private final SubqueryContext context;

  SetOperationPlanner(Schema schema, ParameterTypes parameters, SubqueryContext context) {
    this.schema = schema;
    this.parameters = parameters;
    this.context = context;
  }

  PlanNode plan(SetOperationList list) throws PlanningException {
    final List<PlanNode> operands = new ArrayList<>();
    for (Select s : list.getSelects()) {
      operands.add(query(s));
    }
    final List<SetOperationKind> ops = new ArrayList<>();
    for (SetOperation op : list.getOperations()) {
      ops.add(kind(op));
    }
    PlanNode node = combine(operands, ops);
    node = orderAndLimit(node, list);
    return node;
  }

  private PlanNode query(Select s) throws PlanningException {
    if (s instanceof ParenthesedSelect p) {
      final PlanNode inner = query(p.getSelect());
      return p.getOrderByElements() == null && p.getLimit() == null && p.getOffset() == null ? inner
          : orderAndLimit(inner, p);
    }
    if (s instanceof SetOperationList nested) {
      return plan(nested);
    }
    if (s instanceof PlainSelect plain) {
      return context.assembleSubquery(new SelectPlanner(schema, parameters, context, null).plan(plain));
    }
    throw new PlanningException("unsupported query in a set operation: " + s);
  }

  private static SetOperationKind kind(SetOperation op) throws PlanningException {
    if (op instanceof UnionOp u) {
      return u.isAll() ? SetOperationKind.SET_OPERATION_KIND_UNION_ALL : SetOperationKind.SET_OPERATION_KIND_UNION;
    }
    if (op instanceof IntersectOp) {
      return SetOperationKind.SET_OPERATION_KIND_INTERSECT;
    }
    if (op instanceof ExceptOp || op instanceof MinusOp) {
      return SetOperationKind.SET_OPERATION_KIND_EXCEPT;
    }
    throw new PlanningException("unsupported set operation " + op);
  }

  /** Applies INTERSECTs first, then the other operations left to right. */
  private static PlanNode combine(List<PlanNode> operands, List<SetOperationKind> ops) throws PlanningException {
    final List<PlanNode> terms = new ArrayList<>();
    final List<SetOperationKind> rest = new ArrayList<>();
    PlanNode term = operands.get(0);
    for (int i = 0; i < ops.size(); i++) {
      if (ops.get(i) == SetOperationKind.SET_OPERATION_KIND_INTERSECT) {
        term = node(ops.get(i), term, operands.get(i + 1));
      } else {
        terms.add(term);
        rest.add(ops.get(i));
        term = operands.get(i + 1);
      }
    }
    terms.add(term);
    PlanNode result = terms.get(0);
    for (int i = 0; i < rest.size(); i++) {
      result = node(rest.get(i), result, terms.get(i + 1));
    }
    return result;
  }

  private static PlanNode node(SetOperationKind kind, PlanNode left, PlanNode right) throws PlanningException {
    final int width = left.getOutputSchemaCount();
    if (right.getOutputSchemaCount() != width) {
      throw new PlanningException("the queries of a set operation return different numbers of columns: " + width
          + " and " + right.getOutputSchemaCount());
    }
    final List<OutputColumn> schema = new ArrayList<>();
    for (int i = 0; i < width; i++) {
      final ValueType a = left.getOutputSchema(i).getType();
      final ValueType b = right.getOutputSchema(i).getType();
      ValueType common = TypeRules.common(a, b, "column " + (i + 1) + " of a set operation");
      if (TypeRules.isNull(common)) {
        common = ValueType.VALUE_TYPE_BIGINT;
      }
      schema.add(PlanNodes.column(left.getOutputSchema(i).getName(), common));
    }
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_SET_OPERATION)
        .setSetOperation(SetOperationNode.newBuilder().setKind(kind))
        .addChildren(castTo(left, schema))
        .addChildren(castTo(right, schema))
        .addAllOutputSchema(schema)
        .build();
  }

  /** {@code child} with each column cast to the type in {@code schema} where it differs. */
  private static PlanNode castTo(PlanNode child, List<OutputColumn> schema) {
    boolean differs = false;
    final List<Expression> columns = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    for (int i = 0; i < schema.size(); i++) {
      final ValueType from = child.getOutputSchema(i).getType();
      final ValueType to = schema.get(i).getType();
      final Expression column = Exprs.column(i, from);
      differs |= from != to;
      columns.add(from == to ? column : ExpressionBinder.castTo(column, to, 0));
      names.add(child.getOutputSchema(i).getName());
    }
    return differs ? PlanNodes.projection(child, columns, names) : child;
  }

  private PlanNode orderAndLimit(PlanNode node, Select select) throws PlanningException {
    final List<OrderByElement> order = select.getOrderByElements();
    if (order != null && !order.isEmpty()) {
      final List<SortKey> keys = new ArrayList<>();
      for (OrderByElement e : order) {
        final int column = orderColumn(node, e);
        final boolean descending = !e.isAsc();
        final boolean nullsLast = e.getNullOrdering() == null ? descending
            : e.getNullOrdering() == OrderByElement.NullOrdering.NULLS_LAST;
        keys.add(SortKey.newBuilder()
            .setExpression(Exprs.column(column, node.getOutputSchema(column).getType()))
            .setDescending(descending)
            .setNullsLast(nullsLast)
            .build());
      }
      node = PlanNodes.sort(node, keys);
    }
    final Expression limit = select.getLimit() == null || select.getLimit().getRowCount() == null ? null
        : integer(select.getLimit().getRowCount(), "LIMIT");
    net.sf.jsqlparser.expression.Expression offsetText = select.getOffset() != null
        ? select.getOffset().getOffset() : select.getLimit() == null ? null : select.getLimit().getOffset();
    final Expression offset = offsetText == null ? null : integer(offsetText, "OFFSET");
    if (limit != null || offset != null) {
      node = PlanNodes.limit(node, limit, offset);
    }
    return node;
  }

  private static int orderColumn(PlanNode node, OrderByElement e) throws PlanningException {
    if (e.getExpression() instanceof LongValue position) {
      final long p = position.getValue();
      if (p < 1 || p > node.getOutputSchemaCount()) {
        throw new PlanningException("ORDER BY position " + p + " is not in the select list (1.."
            + node.getOutputSchemaCount() + ")");
      }
      return (int) p - 1;
    }
    if (e.getExpression() instanceof Column c) {
      final String name = Names.normalize(c.getColumnName());
      for (int i = 0; i < node.getOutputSchemaCount(); i++) {
        if (node.getOutputSchema(i).getName().equals(name)) {
          return i;
        }
      }
    }
    throw new PlanningException("ORDER BY of a set operation must name a result column or give its position: "
        + e.getExpression());
  }

  private Expression integer(net.sf.jsqlparser.expression.Expression e, String what) throws PlanningException {
    final Expression bound = new ExpressionBinder(new Scope(), parameters, null).bind(e, ValueType.VALUE_TYPE_BIGINT);
    if (!TypeRules.isInteger(bound.getValueType())) {
      throw new PlanningException(what + " needs an integer, found " + e);
    }
    return bound;
  }
}
