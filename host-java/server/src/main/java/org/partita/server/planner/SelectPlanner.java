package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import org.partita.proto.Expression;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.SortKey;
import org.partita.proto.ValueType;
import org.partita.proto.ValuesNode;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.QueryViewDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;

/** Plans one SELECT block (no set operations) into {@link SelectParts}. */
final class SelectPlanner {
  private final Schema schema;
  private final ParameterTypes parameters;
  private final SubqueryContext subqueries;
  private final OuterReferences outer;

  /**
   * A planner whose expressions may hold subqueries (planned through
   * {@code subqueries}); {@code outer} resolves the names of enclosing
   * queries when this block is itself a subquery (else null).
   */
  SelectPlanner(Schema schema, ParameterTypes parameters, SubqueryContext subqueries, OuterReferences outer) {
    this.schema = schema;
    this.parameters = parameters;
    this.subqueries = subqueries;
    this.outer = outer;
  }

  SelectParts plan(PlainSelect select) throws PlanningException {
    rejectUnsupported(select);
    final Scope scope = new Scope();
    final List<FromTable> tables = new ArrayList<>();
    final ExpressionBinder input = new ExpressionBinder(scope, parameters, null, subqueries, outer);
    buildFrom(select, scope, tables, input);
    final List<Expression> where = new ArrayList<>();
    if (select.getWhere() != null) {
      if (AggregateFinder.contains(select.getWhere())) {
        throw new PlanningException("aggregate functions are not allowed in WHERE; use HAVING: " + select.getWhere());
      }
      where.addAll(Exprs.conjuncts(input.bindCondition(select.getWhere(), "WHERE")));
    }
    final PlanNode source = tables.isEmpty() ? oneEmptyRow() : JoinPlanner.plan(tables, where,
        subqueries == null ? TableStatistics.UNKNOWN : subqueries.statistics());

    final AggregateCollector aggregation = aggregationOf(select, input);
    final ExpressionBinder output = aggregation == null ? input : new ExpressionBinder(scope, parameters, aggregation, subqueries, outer);
    final List<Expression> projections = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    bindSelectList(select, scope, output, projections, names);
    final Expression having = select.getHaving() == null ? null : output.bindCondition(select.getHaving(), "HAVING");
    if (having != null && aggregation == null) {
      throw new PlanningException("HAVING needs GROUP BY or an aggregate function");
    }
    final int visible = projections.size();
    final boolean distinct = select.getDistinct() != null;
    final List<SortKey> sortKeys = bindOrderBy(select.getOrderByElements(), output, projections, names, distinct);
    return new SelectParts(tables, source, where, aggregation, having, projections, names, visible, distinct,
        sortKeys, limitExpression(select, true), limitExpression(select, false));
  }

  private static void rejectUnsupported(PlainSelect select) throws PlanningException {
    if (select.getDistinct() != null && select.getDistinct().getOnSelectItems() != null) {
      throw new PlanningException("DISTINCT ON is not supported");
    }
    if (select.getIntoTables() != null) {
      throw new PlanningException("SELECT INTO is not supported; use INSERT INTO ... SELECT");
    }
    if (select.getFetch() != null || select.getTop() != null) {
      throw new PlanningException("use LIMIT and OFFSET to limit rows");
    }
  }

  private void buildFrom(PlainSelect select, Scope scope, List<FromTable> tables, ExpressionBinder binder)
      throws PlanningException {
    if (select.getFromItem() == null) {
      return;
    }
    addFromItem(select.getFromItem(), false, scope, tables, binder);
    addJoins(select.getJoins(), scope, tables, binder);
  }

  private void addJoins(List<Join> joins, Scope scope, List<FromTable> tables, ExpressionBinder binder)
      throws PlanningException {
    if (joins == null) {
      return;
    }
    for (Join join : joins) {
      if (join.isRight() || join.isFull() || join.isNatural() || join.isSemi() || join.isApply()) {
        throw new PlanningException("unsupported join: " + join + " (Partita has INNER, LEFT and CROSS joins)");
      }
      final boolean left = join.isLeft();
      addFromItem(join.getRightItem(), left, scope, tables, binder);
      final List<Expression> on = new ArrayList<>();
      for (net.sf.jsqlparser.expression.Expression e : join.getOnExpressions()) {
        on.addAll(Exprs.conjuncts(binder.bindCondition(e, "ON")));
      }
      if (join.getUsingColumns() != null) {
        on.addAll(usingConditions(join.getUsingColumns(), tables, scope));
      }
      if (left && on.isEmpty()) {
        throw new PlanningException("LEFT JOIN needs an ON condition: " + join);
      }
      final FromTable last = tables.remove(tables.size() - 1);
      tables.add(last.withJoin(left, on));
    }
  }

  /**
   * A FROM item: a table, or a parenthesized join without an alias, which is
   * flattened into the FROM list. That keeps its meaning because joins are
   * planned left-deep and {@code x [INNER|CROSS] JOIN (a ⋈ b)} equals
   * {@code (x JOIN a) ⋈ b} when b's conditions read only a and b; a
   * parenthesized join on the right of a LEFT JOIN does not flatten.
   */
  private void addFromItem(FromItem item, boolean left, Scope scope, List<FromTable> tables,
      ExpressionBinder binder) throws PlanningException {
    if (item instanceof ParenthesedFromItem group && group.getAlias() == null) {
      if (left) {
        throw new PlanningException("a parenthesized join on the right of LEFT JOIN is not supported: " + item);
      }
      addFromItem(group.getFromItem(), false, scope, tables, binder);
      addJoins(group.getJoins(), scope, tables, binder);
      return;
    }
    addTable(item, left, scope, tables);
  }

  private void addTable(FromItem item, boolean left, Scope scope, List<FromTable> tables) throws PlanningException {
    if (item instanceof ParenthesedSelect sub) {
      if (sub.getAlias() == null) {
        throw new PlanningException("a subquery in FROM needs an alias: " + item);
      }
      addDerived(Names.normalize(sub.getAlias().getName()), derivedPlan(sub.getSelect(), List.of()), left, scope,
          tables);
      return;
    }
    if (!(item instanceof Table t)) {
      throw new PlanningException("unsupported FROM item: " + item);
    }
    final String name = Names.normalize(t.getName());
    final java.util.Optional<QueryViewDef> view = schema.queryView(name);
    if (view.isPresent()) {
      final String qualifier = t.getAlias() == null ? name : Names.normalize(t.getAlias().getName());
      final net.sf.jsqlparser.statement.Statement parsed = SqlPlanner.parse(view.get().select());
      if (!(parsed instanceof net.sf.jsqlparser.statement.select.Select select)) {
        throw new PlanningException("view " + name + " is not a query");
      }
      addDerived(qualifier, derivedPlan(select, view.get().columnNames()), left, scope, tables);
      return;
    }
    final TableDef table = schema.table(name)
        .orElseThrow(() -> new PlanningException("unknown table " + name));
    final Alias alias = t.getAlias();
    final String qualifier = alias == null ? name : Names.normalize(alias.getName());
    final int offset = scope.size();
    scope.addTable(qualifier, table);
    tables.add(new FromTable(qualifier, table, offset, left, List.of()));
  }

  /**
   * The plan of a subquery in FROM or a plain view's query, planned like a
   * subquery (no correlation); its columns renamed to {@code names} when
   * given.
   */
  private PlanNode derivedPlan(net.sf.jsqlparser.statement.select.Select select, List<String> names)
      throws PlanningException {
    if (subqueries == null) {
      throw new PlanningException("subqueries and views are not supported here: " + select);
    }
    PlanNode plan;
    if (select instanceof net.sf.jsqlparser.statement.select.SetOperationList list) {
      plan = new SetOperationPlanner(schema, parameters, subqueries).plan(list);
    } else {
      plan = subqueries.assembleSubquery(
          new SelectPlanner(schema, parameters, subqueries, null).plan(SubqueryBinder.select(select)));
    }
    if (names.isEmpty()) {
      return plan;
    }
    final PlanNode.Builder renamed = plan.toBuilder().clearOutputSchema();
    for (int i = 0; i < names.size(); i++) {
      renamed.addOutputSchema(plan.getOutputSchema(i).toBuilder().setName(names.get(i)));
    }
    return renamed.build();
  }

  private static void addDerived(String qualifier, PlanNode plan, boolean left, Scope scope, List<FromTable> tables)
      throws PlanningException {
    final List<ColumnDef> columns = new ArrayList<>();
    for (org.partita.proto.OutputColumn c : plan.getOutputSchemaList()) {
      columns.add(new ColumnDef(c.getName(), c.getType(), 0, true, null));
    }
    final TableDef table = new TableDef(qualifier, columns, List.of(), TableDef.REPLICATED, null);
    final int offset = scope.size();
    scope.addTable(qualifier, table);
    tables.add(new FromTable(qualifier, table, offset, left, List.of(), plan));
  }

  private static List<Expression> usingConditions(List<Column> columns, List<FromTable> tables, Scope scope)
      throws PlanningException {
    final List<Expression> conditions = new ArrayList<>();
    final FromTable right = tables.get(tables.size() - 1);
    for (Column c : columns) {
      final String name = Names.normalize(c.getColumnName());
      final int r = right.table().columnIndex(name);
      int l = -1;
      for (int i = tables.size() - 2; i >= 0 && l < 0; i--) {
        final int k = tables.get(i).table().columnIndex(name);
        l = k < 0 ? -1 : tables.get(i).offset() + k;
      }
      if (r < 0 || l < 0) {
        throw new PlanningException("USING column " + name + " is not in both sides of the join");
      }
      final int ri = right.offset() + r;
      final Expression[] pair = ExpressionBinder.coerceComparable(
          Exprs.column(l, scope.get(l).type()), Exprs.column(ri, scope.get(ri).type()), "USING " + name);
      conditions.add(Exprs.op(org.partita.proto.ExpressionKind.EXPRESSION_KIND_EQUAL,
          ValueType.VALUE_TYPE_BOOLEAN, pair[0], pair[1]));
    }
    return conditions;
  }

  private static PlanNode oneEmptyRow() {
    return PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_VALUES)
        .setValues(ValuesNode.newBuilder().addRows(ValuesNode.Row.getDefaultInstance()))
        .build();
  }

  private AggregateCollector aggregationOf(PlainSelect select, ExpressionBinder input) throws PlanningException {
    final List<Expression> groupBy = new ArrayList<>();
    if (select.getGroupBy() != null) {
      if (select.getGroupBy().getGroupingSets() != null && !select.getGroupBy().getGroupingSets().isEmpty()) {
        throw new PlanningException("GROUPING SETS are not supported");
      }
      for (Object o : select.getGroupBy().getGroupByExpressionList()) {
        final net.sf.jsqlparser.expression.Expression e = (net.sf.jsqlparser.expression.Expression) o;
        if (AggregateFinder.contains(e)) {
          throw new PlanningException("aggregate functions are not allowed in GROUP BY: " + e);
        }
        groupBy.add(input.bind(e));
      }
    }
    boolean hasAggregates = AggregateFinder.contains(select.getHaving());
    for (SelectItem<?> item : select.getSelectItems()) {
      hasAggregates |= AggregateFinder.contains(item.getExpression());
    }
    if (select.getOrderByElements() != null) {
      for (OrderByElement o : select.getOrderByElements()) {
        hasAggregates |= AggregateFinder.contains(o.getExpression());
      }
    }
    return groupBy.isEmpty() && !hasAggregates ? null : new AggregateCollector(groupBy);
  }

  private static void bindSelectList(PlainSelect select, Scope scope, ExpressionBinder binder,
      List<Expression> projections, List<String> names) throws PlanningException {
    for (SelectItem<?> item : select.getSelectItems()) {
      final net.sf.jsqlparser.expression.Expression e = item.getExpression();
      if (e instanceof AllColumns && !(e instanceof AllTableColumns)) {
        expandStar(scope, null, binder, projections, names);
      } else if (e instanceof AllTableColumns all) {
        expandStar(scope, Names.normalize(all.getTable().getName()), binder, projections, names);
      } else {
        projections.add(binder.bind(e));
        names.add(item.getAlias() != null ? Names.normalize(item.getAlias().getName())
            : e instanceof Column c ? Names.normalize(c.getColumnName()) : "C" + (projections.size()));
      }
    }
  }

  private static void expandStar(Scope scope, String qualifier, ExpressionBinder binder,
      List<Expression> projections, List<String> names) throws PlanningException {
    if (qualifier != null && !scope.hasQualifier(qualifier)) {
      throw new PlanningException("unknown table or alias " + qualifier + " in " + qualifier + ".*");
    }
    if (scope.size() == 0) {
      throw new PlanningException("SELECT * needs a FROM clause");
    }
    for (int i = 0; i < scope.size(); i++) {
      final Scope.Entry entry = scope.get(i);
      if (qualifier == null || entry.qualifier().equals(qualifier)) {
        final Column column = new Column(new Table(quote(entry.qualifier())), quote(entry.column()));
        projections.add(binder.bind(column));
        names.add(entry.column());
      }
    }
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static List<SortKey> bindOrderBy(List<OrderByElement> elements, ExpressionBinder binder,
      List<Expression> projections, List<String> names, boolean distinct) throws PlanningException {
    final List<SortKey> keys = new ArrayList<>();
    if (elements == null) {
      return keys;
    }
    final int visible = projections.size();
    for (OrderByElement element : elements) {
      final int column = orderColumn(element.getExpression(), binder, projections, names, visible);
      if (column >= visible && distinct) {
        throw new PlanningException("ORDER BY " + element.getExpression()
            + " must appear in the select list of a SELECT DISTINCT");
      }
      final boolean descending = !element.isAsc();
      final boolean nullsLast = element.getNullOrdering() == null ? descending
          : element.getNullOrdering() == OrderByElement.NullOrdering.NULLS_LAST;
      keys.add(SortKey.newBuilder()
          .setExpression(Exprs.column(column, projections.get(column).getValueType()))
          .setDescending(descending)
          .setNullsLast(nullsLast)
          .build());
    }
    return keys;
  }

  /** The projected column an ORDER BY item sorts on, appending a hidden one when needed. */
  private static int orderColumn(net.sf.jsqlparser.expression.Expression e, ExpressionBinder binder,
      List<Expression> projections, List<String> names, int visible) throws PlanningException {
    if (e instanceof LongValue position) {
      final long p = position.getValue();
      if (p < 1 || p > visible) {
        throw new PlanningException("ORDER BY position " + p + " is not in the select list (1.." + visible + ")");
      }
      return (int) p - 1;
    }
    if (e instanceof Column c && c.getTable() == null) {
      final int byName = names.subList(0, visible).indexOf(Names.normalize(c.getColumnName()));
      if (byName >= 0 && names.lastIndexOf(Names.normalize(c.getColumnName())) == byName) {
        final Expression bound = tryBind(binder, e);
        if (bound == null || bound.equals(projections.get(byName))) {
          return byName;
        }
      }
    }
    final Expression bound = binder.bind(e);
    final int existing = projections.indexOf(bound);
    if (existing >= 0) {
      return existing;
    }
    projections.add(bound);
    names.add("$ORDER" + projections.size());
    return projections.size() - 1;
  }

  private static Expression tryBind(ExpressionBinder binder, net.sf.jsqlparser.expression.Expression e) {
    try {
      return binder.bind(e);
    } catch (PlanningException notAColumn) {
      return null;  // an alias of the select list, not a column of FROM
    }
  }

  private Expression limitExpression(PlainSelect select, boolean limit) throws PlanningException {
    net.sf.jsqlparser.expression.Expression e = null;
    if (limit && select.getLimit() != null) {
      e = select.getLimit().getRowCount();
      if (select.getLimit().getOffset() != null && select.getOffset() == null) {
        e = select.getLimit().getRowCount();
      }
    } else if (!limit) {
      if (select.getOffset() != null) {
        e = select.getOffset().getOffset();
      } else if (select.getLimit() != null) {
        e = select.getLimit().getOffset();
      }
    }
    if (e == null) {
      return null;
    }
    final Expression bound = new ExpressionBinder(new Scope(), parameters, null).bind(e, ValueType.VALUE_TYPE_BIGINT);
    if (!TypeRules.isInteger(bound.getValueType())) {
      throw new PlanningException((limit ? "LIMIT" : "OFFSET") + " needs an integer, found " + e);
    }
    return bound;
  }
}
