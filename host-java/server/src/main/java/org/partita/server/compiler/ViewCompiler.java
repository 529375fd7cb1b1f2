package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import org.partita.proto.AggregateKind;
import org.partita.proto.Expression;
import org.partita.proto.IndexKind;
import org.partita.proto.ValueType;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.IndexDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.catalog.ViewDef;
import org.partita.server.planner.Names;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.ViewPredicateBinder;

/**
 * CREATE VIEW as an incrementally maintained aggregate view:
 * {@code SELECT g1, ..., gk, COUNT(*), SUM(c), COUNT(c), MIN(c), MAX(c) FROM t
 * [WHERE ...] GROUP BY g1, ..., gk}. The group-by columns come first, as plain
 * columns; each aggregate reads one plain column. Anything else is an error
 * that names the construct.
 */
final class ViewCompiler {
  private ViewCompiler() {}

  static TableDef compile(Schema schema, CreateView create, String sql) throws PlanningException {
    final String name = Names.normalize(create.getView().getName());
    if (schema.table(name).isPresent()) {
      throw new PlanningException("a table or view called " + name + " already exists");
    }
    if (!(create.getSelect() instanceof PlainSelect select)) {
      throw new PlanningException("view " + name + " must be a single SELECT with GROUP BY");
    }
    if (!(select.getFromItem() instanceof Table from) || (select.getJoins() != null && !select.getJoins().isEmpty())) {
      throw new PlanningException("view " + name + " must read exactly one table (joins are not supported in views)");
    }
    final String sourceName = Names.normalize(from.getName());
    final TableDef source = schema.table(sourceName)
        .orElseThrow(() -> new PlanningException("view " + name + ": unknown table " + sourceName));
    if (source.isView()) {
      throw new PlanningException("view " + name + " reads view " + sourceName + "; views must read tables");
    }
    if (select.getGroupBy() == null || select.getGroupBy().getGroupByExpressionList().isEmpty()) {
      throw new PlanningException("view " + name + " needs GROUP BY: Partita's views are incrementally maintained"
          + " aggregates (plain views are not supported)");
    }
    if (select.getHaving() != null || select.getOrderByElements() != null || select.getLimit() != null
        || select.getDistinct() != null) {
      throw new PlanningException("view " + name + " cannot use HAVING, ORDER BY, LIMIT or DISTINCT");
    }
    final List<Integer> groupBy = groupColumns(name, select, source);
    final List<String> columnNames = new ArrayList<>();
    if (create.getColumnNames() != null) {
      create.getColumnNames().forEach(c -> columnNames.add(Names.normalize(c.getColumnName())));
    }
    final List<ColumnDef> columns = new ArrayList<>();
    final List<ViewDef.Aggregate> aggregates = new ArrayList<>();
    final List<SelectItem<?>> items = select.getSelectItems();
    if (!columnNames.isEmpty() && columnNames.size() != items.size()) {
      throw new PlanningException("view " + name + " names " + columnNames.size() + " columns but selects "
          + items.size());
    }
    for (int i = 0; i < items.size(); i++) {
      final SelectItem<?> item = items.get(i);
      final String alias = !columnNames.isEmpty() ? columnNames.get(i)
          : item.getAlias() != null ? Names.normalize(item.getAlias().getName()) : null;
      if (i < groupBy.size()) {
        final ColumnDef c = source.columns().get(groupColumnAt(name, item, source, groupBy, i));
        columns.add(new ColumnDef(alias != null ? alias : c.name(), c.type(), c.maxLength(), c.nullable(), null));
      } else {
        final ViewDef.Aggregate aggregate = aggregate(name, item, source);
        aggregates.add(aggregate);
        columns.add(aggregateColumn(alias != null ? alias : "C" + (i + 1), aggregate, source));
      }
    }
    final Expression predicate = select.getWhere() == null ? null
        : ViewPredicateBinder.bind(source, select.getWhere(), "view " + name);
    final List<Integer> key = new ArrayList<>();
    for (int i = 0; i < groupBy.size(); i++) {
      key.add(i);
    }
    final IndexDef groupIndex = new IndexDef(name + "_GROUP", IndexKind.INDEX_KIND_HASH, true, key, true, "");
    return new TableDef(name, columns, List.of(groupIndex), TableDef.REPLICATED,
        new ViewDef(sourceName, groupBy, aggregates, predicate, sql));
  }

  private static List<Integer> groupColumns(String view, PlainSelect select, TableDef source) throws PlanningException {
    final List<Integer> groupBy = new ArrayList<>();
    for (Object o : select.getGroupBy().getGroupByExpressionList()) {
      if (!(o instanceof Column c)) {
        throw new PlanningException("view " + view + " can only GROUP BY plain columns, found " + o);
      }
      final int p = source.columnIndex(Names.normalize(c.getColumnName()));
      if (p < 0) {
        throw new PlanningException("view " + view + ": table " + source.name() + " has no column " + c);
      }
      groupBy.add(p);
    }
    return groupBy;
  }

  private static int groupColumnAt(String view, SelectItem<?> item, TableDef source, List<Integer> groupBy, int i)
      throws PlanningException {
    if (item.getExpression() instanceof Column c) {
      final int p = source.columnIndex(Names.normalize(c.getColumnName()));
      if (p == groupBy.get(i)) {
        return p;
      }
    }
    throw new PlanningException("view " + view + " must list its GROUP BY columns first, in GROUP BY order; item "
        + (i + 1) + " is " + item);
  }

  private static ViewDef.Aggregate aggregate(String view, SelectItem<?> item, TableDef source)
      throws PlanningException {
    if (!(item.getExpression() instanceof Function f)) {
      throw new PlanningException("view " + view + ": " + item + " is neither a GROUP BY column nor an aggregate");
    }
    final String fn = f.getName().toUpperCase(Locale.ROOT);
    if (org.partita.server.planner.FunctionBinder.isStar(f)) {
      if (!fn.equals("COUNT")) {
        throw new PlanningException("view " + view + ": " + f + " is not supported");
      }
      return new ViewDef.Aggregate(AggregateKind.AGGREGATE_KIND_COUNT_STAR, -1);
    }
    if (f.isDistinct()) {
      throw new PlanningException("view " + view + ": DISTINCT aggregates cannot be maintained incrementally: " + f);
    }
    final AggregateKind kind = switch (fn) {
      case "COUNT" -> AggregateKind.AGGREGATE_KIND_COUNT;
      case "SUM" -> AggregateKind.AGGREGATE_KIND_SUM;
      case "MIN" -> AggregateKind.AGGREGATE_KIND_MIN;
      case "MAX" -> AggregateKind.AGGREGATE_KIND_MAX;
      default -> throw new PlanningException("view " + view + ": " + fn + " is not supported in views (COUNT, SUM,"
          + " MIN and MAX are; compute AVG as SUM / COUNT when reading)");
    };
    if (f.getParameters() == null || f.getParameters().size() != 1 || !(f.getParameters().get(0) instanceof Column c)) {
      throw new PlanningException("view " + view + ": aggregates in views read one plain column, found " + f);
    }
    final int p = source.columnIndex(Names.normalize(c.getColumnName()));
    if (p < 0) {
      throw new PlanningException("view " + view + ": table " + source.name() + " has no column " + c);
    }
    final ValueType t = source.columns().get(p).type();
    if (kind == AggregateKind.AGGREGATE_KIND_SUM && !(t == ValueType.VALUE_TYPE_FLOAT
        || t == ValueType.VALUE_TYPE_DECIMAL || t.getNumber() <= ValueType.VALUE_TYPE_BIGINT.getNumber())) {
      throw new PlanningException("view " + view + ": SUM needs a numeric column, " + c + " is not");
    }
    return new ViewDef.Aggregate(kind, p);
  }

  private static ColumnDef aggregateColumn(String name, ViewDef.Aggregate aggregate, TableDef source) {
    return switch (aggregate.kind()) {
      case AGGREGATE_KIND_COUNT_STAR, AGGREGATE_KIND_COUNT ->
          new ColumnDef(name, ValueType.VALUE_TYPE_BIGINT, 0, false, null);
      case AGGREGATE_KIND_SUM -> {
        final ValueType t = source.columns().get(aggregate.sourceColumn()).type();
        yield new ColumnDef(name, t == ValueType.VALUE_TYPE_FLOAT || t == ValueType.VALUE_TYPE_DECIMAL ? t
            : ValueType.VALUE_TYPE_BIGINT, 0, true, null);
      }
      default -> {
        final ColumnDef c = source.columns().get(aggregate.sourceColumn());
        yield new ColumnDef(name, c.type(), c.maxLength(), true, null);
      }
    };
  }
}
