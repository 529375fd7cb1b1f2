package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.select.PlainSelect;
import org.partita.server.catalog.QueryViewDef;
import org.partita.server.catalog.Schema;
import org.partita.server.planner.Names;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;

/**
 * Compiles {@code CREATE VIEW v [(columns)] AS SELECT ...} without GROUP BY or
 * aggregates into a plain view ({@link QueryViewDef}). The query is planned
 * once here, so that a view that cannot be read is an error when created.
 */
final class QueryViewCompiler {
  private QueryViewCompiler() {}

  /** Whether {@code create} defines a plain view rather than a materialized aggregate. */
  static boolean isQueryView(CreateView create) {
    if (!(create.getSelect() instanceof PlainSelect select)) {
      return true;
    }
    return select.getGroupBy() == null || select.getGroupBy().getGroupByExpressionList().isEmpty();
  }

  static QueryViewDef compile(Schema schema, CreateView create) throws PlanningException {
    final String name = Names.normalize(create.getView().getName());
    if (schema.table(name).isPresent() || schema.queryView(name).isPresent()) {
      throw new PlanningException("a table or view called " + name + " already exists");
    }
    final String select = create.getSelect().toString();
    final List<String> columns = new ArrayList<>();
    if (create.getColumnNames() != null) {
      create.getColumnNames().forEach(c -> columns.add(Names.normalize(c.getColumnName())));
    }
    final int width = new SqlPlanner(schema).plan(select, false).plan().getOutputSchemaCount();
    if (!columns.isEmpty() && columns.size() != width) {
      throw new PlanningException("view " + name + " names " + columns.size() + " columns but selects " + width);
    }
    return new QueryViewDef(name, select, columns);
  }
}
