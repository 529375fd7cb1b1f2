package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;
import org.partita.proto.DeleteNode;
import org.partita.proto.Expression;
import org.partita.proto.InsertNode;
import org.partita.proto.PlanNode;
import org.partita.proto.PlanNodeKind;
import org.partita.proto.UpdateNode;
import org.partita.proto.ValueType;
import org.partita.proto.ValuesNode;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;

/**
 * Plans INSERT (VALUES or SELECT), UPSERT, UPDATE and DELETE into engine plans
 * that return one BIGINT row, the number of rows changed. Views are read-only.
 */
final class DmlPlanner {
  static final String MODIFIED = "MODIFIED_TUPLES";

  /** A planned write: the engine plan and the rows that decide its partition. */
  record Write(TableDef table, PlanNode plan, List<Expression> where, List<Expression> partitionKeys,
               SelectSource selectSource) {}

  /**
   * The query of an INSERT ... SELECT; {@code partitionValue} is the
   * position in its select list of the value that goes to the target's
   * partitioning column (-1: none, or the target is replicated).
   */
  record SelectSource(SelectParts parts, int partitionValue) {}

  private final Schema schema;
  private final ParameterTypes parameters;

  DmlPlanner(Schema schema, ParameterTypes parameters) {
    this.schema = schema;
    this.parameters = parameters;
  }

  Write insert(Insert insert, boolean upsert) throws PlanningException {
    final TableDef table = writableTable(insert.getTable());
    final List<Integer> targets = targetColumns(table, insert.getColumns());
    if (insert.isUseDuplicate() || insert.getConflictAction() != null || insert.getReturningClause() != null) {
      throw new PlanningException("ON DUPLICATE KEY, ON CONFLICT and RETURNING are not supported; use UPSERT");
    }
    if (upsert && table.primaryKey().isEmpty()) {
      throw new PlanningException("UPSERT into " + table.name() + " needs a primary key");
    }
    final Select select = insert.getSelect();
    if (select instanceof Values values) {
      return insertValues(table, targets, rows(values, targets.size()), upsert);
    }
    if (select == null) {
      throw new PlanningException("INSERT needs VALUES or a SELECT");
    }
    return insertSelect(table, targets, SubqueryBinder.select(select), upsert);
  }

  /**
   * INSERT ... SELECT: the query's rows, each value placed in its target
   * column (converted by the engine's assignment rules), DEFAULT or NULL in
   * the others. Where it may run is decided from {@link Write#selectSource}.
   */
  private Write insertSelect(TableDef table, List<Integer> targets, PlainSelect select, boolean upsert)
      throws PlanningException {
    final SubqueryContext subqueries = new SubqueryContext(schema, false, TableStatistics.UNKNOWN);
    final SelectParts parts = new SelectPlanner(schema, parameters, subqueries, null).plan(select);
    if (subqueries.needsRemote()) {
      throw new PlanningException("INSERT ... SELECT with subqueries over partitioned tables is not supported");
    }
    if (parts.visible() != targets.size()) {
      throw new PlanningException("INSERT into " + table.name() + " gives " + parts.visible() + " values for "
          + targets.size() + " columns");
    }
    final PlanNode query = SelectAssembler.local(parts);
    final Expression[] full = defaults(table);
    for (int i = 0; i < targets.size(); i++) {
      final ColumnDef column = table.columns().get(targets.get(i));
      final Expression value = Exprs.column(i, query.getOutputSchema(i).getType());
      checkAssignable(column, value, table);
      full[targets.get(i)] = value;
    }
    final List<String> names = new ArrayList<>();
    table.columns().forEach(c -> names.add(c.name()));
    final PlanNode plan = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_INSERT)
        .addChildren(PlanNodes.projection(query, List.of(full), names))
        .addOutputSchema(PlanNodes.column(MODIFIED, ValueType.VALUE_TYPE_BIGINT))
        .setInsert(InsertNode.newBuilder().setTable(table.name()).setUpsert(upsert))
        .build();
    final int partitionValue = table.isReplicated() ? -1 : targets.indexOf(table.partitionColumn());
    return new Write(table, plan, List.of(), List.of(), new SelectSource(parts, partitionValue));
  }

  /**
   * The rows of VALUES. The parser gives {@code (1, 2), (3, 4)} as a list of
   * lists, {@code (1, 2)} as one list, and, for one column, {@code (1), (2)}
   * as a list of parenthesized values — each of which is then a row.
   */
  private static List<ExpressionList<?>> rows(Values values, int columns) {
    final ExpressionList<?> list = values.getExpressions();
    final List<ExpressionList<?>> rows = new ArrayList<>();
    final boolean multiRow = !list.isEmpty() && list.stream().allMatch(e -> e instanceof ExpressionList<?>);
    final boolean oneColumnRows = columns == 1 && list.size() > 1
        && list.stream().allMatch(e -> e instanceof net.sf.jsqlparser.expression.Parenthesis);
    if (multiRow) {
      list.forEach(e -> rows.add((ExpressionList<?>) e));
    } else if (oneColumnRows) {
      list.forEach(e -> rows.add(new ExpressionList<>(((net.sf.jsqlparser.expression.Parenthesis) e).getExpression())));
    } else {
      rows.add(list);
    }
    return rows;
  }

  private Write insertValues(TableDef table, List<Integer> targets, List<ExpressionList<?>> rows, boolean upsert)
      throws PlanningException {
    final ExpressionBinder binder = new ExpressionBinder(new Scope(), parameters, null);
    final ValuesNode.Builder values = ValuesNode.newBuilder();
    final List<Expression> partitionKeys = new ArrayList<>();
    for (ExpressionList<?> row : rows) {
      if (row.size() != targets.size()) {
        throw new PlanningException("INSERT into " + table.name() + " gives " + row.size() + " values for "
            + targets.size() + " columns");
      }
      final Expression[] full = defaults(table);
      for (int i = 0; i < targets.size(); i++) {
        final ColumnDef column = table.columns().get(targets.get(i));
        final Expression value = binder.bind(row.get(i), column.type());
        if (!Exprs.isRowIndependent(value)) {
          throw new PlanningException("INSERT values cannot read columns: " + row.get(i));
        }
        checkAssignable(column, value, table);
        full[targets.get(i)] = value;
      }
      values.addRows(ValuesNode.Row.newBuilder().addAllColumns(List.of(full)));
      if (!table.isReplicated()) {
        partitionKeys.add(full[table.partitionColumn()]);
      }
    }
    final PlanNode source = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_VALUES)
        .addAllOutputSchema(PlanNodes.tableColumns(table))
        .setValues(values)
        .build();
    final PlanNode plan = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_INSERT)
        .addChildren(source)
        .addOutputSchema(PlanNodes.column(MODIFIED, ValueType.VALUE_TYPE_BIGINT))
        .setInsert(InsertNode.newBuilder().setTable(table.name()).setUpsert(upsert))
        .build();
    return new Write(table, plan, List.of(), partitionKeys, null);
  }

  /** One expression per column: its DEFAULT, or NULL. */
  private static Expression[] defaults(TableDef table) {
    final Expression[] full = new Expression[table.columns().size()];
    for (int i = 0; i < full.length; i++) {
      final ColumnDef c = table.columns().get(i);
      full[i] = Exprs.constant(c.defaultValue() != null ? c.defaultValue() : Exprs.nullOf(c.type()));
    }
    return full;
  }

  static void checkAssignable(ColumnDef column, Expression value, TableDef table) throws PlanningException {
    final ValueType from = value.getValueType();
    final ValueType to = column.type();
    final boolean ok = TypeRules.isNull(from) || from == to
        || (TypeRules.isNumeric(from) && TypeRules.isNumeric(to))
        || (to == ValueType.VALUE_TYPE_TIMESTAMP && (TypeRules.isInteger(from) || from == ValueType.VALUE_TYPE_VARCHAR));
    if (!ok) {
      throw new PlanningException("cannot assign " + TypeRules.name(from) + " to column " + table.name() + "."
          + column.name() + " of type " + column.typeText());
    }
  }

  private List<Integer> targetColumns(TableDef table, List<Column> columns) throws PlanningException {
    final List<Integer> targets = new ArrayList<>();
    if (columns == null || columns.isEmpty()) {
      for (int i = 0; i < table.columns().size(); i++) {
        targets.add(i);
      }
      return targets;
    }
    for (Column c : columns) {
      final String name = Names.normalize(c.getColumnName());
      final int index = table.columnIndex(name);
      if (index < 0) {
        throw new PlanningException("table " + table.name() + " has no column " + name);
      }
      if (targets.contains(index)) {
        throw new PlanningException("column " + name + " is named twice");
      }
      targets.add(index);
    }
    return targets;
  }

  private TableDef writableTable(Table t) throws PlanningException {
    if (t == null || t.getName() == null) {
      throw new PlanningException("the statement names no table to write");
    }
    final String name = Names.normalize(t.getName());
    final TableDef table = schema.table(name).orElseThrow(() -> new PlanningException("unknown table " + name));
    if (table.isView()) {
      throw new PlanningException(name + " is a materialized view; write to its source table "
          + table.view().sourceTable() + " instead");
    }
    return table;
  }

  Write update(Update update) throws PlanningException {
    if (update.getJoins() != null && !update.getJoins().isEmpty() || update.getFromItem() != null) {
      throw new PlanningException("UPDATE with FROM or JOIN is not supported");
    }
    final TableDef table = writableTable(update.getTable());
    final Scope scope = scopeOf(update.getTable(), table);
    final ExpressionBinder binder = new ExpressionBinder(scope, parameters, null);
    final UpdateNode.Builder node = UpdateNode.newBuilder().setTable(table.name());
    for (UpdateSet set : update.getUpdateSets()) {
      if (set.getColumns().size() != set.getValues().size()) {
        throw new PlanningException("UPDATE SET gives " + set.getValues().size() + " values for "
            + set.getColumns().size() + " columns");
      }
      for (int i = 0; i < set.getColumns().size(); i++) {
        final String name = Names.normalize(set.getColumns().get(i).getColumnName());
        final int index = table.columnIndex(name);
        if (index < 0) {
          throw new PlanningException("table " + table.name() + " has no column " + name);
        }
        if (index == table.partitionColumn()) {
          throw new PlanningException("cannot UPDATE the partitioning column " + table.name() + "." + name
              + " (the row would move to another partition); DELETE and INSERT it instead");
        }
        final ColumnDef column = table.columns().get(index);
        final Expression value = binder.bind(set.getValues().get(i), column.type());
        checkAssignable(column, value, table);
        node.addAssignments(UpdateNode.Assignment.newBuilder().setColumnIndex(index).setValue(value));
      }
    }
    final List<Expression> where = whereOf(update.getWhere(), binder);
    final PlanNode plan = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_UPDATE)
        .addChildren(scanForWrite(table, where))
        .addOutputSchema(PlanNodes.column(MODIFIED, ValueType.VALUE_TYPE_BIGINT))
        .setUpdate(node)
        .build();
    return new Write(table, plan, where, List.of(), null);
  }

  Write delete(Delete delete) throws PlanningException {
    if (delete.getJoins() != null && !delete.getJoins().isEmpty()
        || delete.getUsingList() != null && !delete.getUsingList().isEmpty()) {
      throw new PlanningException("DELETE with USING or JOIN is not supported");
    }
    if (delete.getLimit() != null || delete.getOrderByElements() != null) {
      throw new PlanningException("DELETE with ORDER BY or LIMIT is not supported");
    }
    final TableDef table = writableTable(delete.getTable());
    final ExpressionBinder binder = new ExpressionBinder(scopeOf(delete.getTable(), table), parameters, null);
    final List<Expression> where = whereOf(delete.getWhere(), binder);
    final PlanNode plan = PlanNode.newBuilder()
        .setKind(PlanNodeKind.PLAN_NODE_KIND_DELETE)
        .addChildren(scanForWrite(table, where))
        .addOutputSchema(PlanNodes.column(MODIFIED, ValueType.VALUE_TYPE_BIGINT))
        .setDelete(DeleteNode.newBuilder().setTable(table.name()))
        .build();
    return new Write(table, plan, where, List.of(), null);
  }

  private static Scope scopeOf(Table t, TableDef table) throws PlanningException {
    final Scope scope = new Scope();
    scope.addTable(t.getAlias() == null ? table.name() : Names.normalize(t.getAlias().getName()), table);
    return scope;
  }

  private static List<Expression> whereOf(net.sf.jsqlparser.expression.Expression where, ExpressionBinder binder)
      throws PlanningException {
    if (where == null) {
      return List.of();
    }
    if (AggregateFinder.contains(where)) {
      throw new PlanningException("aggregate functions are not allowed in WHERE: " + where);
    }
    return Exprs.conjuncts(binder.bindCondition(where, "WHERE"));
  }

  private static PlanNode scanForWrite(TableDef table, List<Expression> where) throws PlanningException {
    final FromTable from = new FromTable(table.name(), table, 0, false, List.of());
    return JoinPlanner.plan(List.of(from), where, TableStatistics.UNKNOWN);
  }
}
