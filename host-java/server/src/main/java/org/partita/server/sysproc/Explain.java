package org.partita.server.sysproc;

import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;

/**
 * {@code @Explain(sql)}: plans a statement against the current schema,
 * without running it, and answers its plan, one row per line (column PLAN).
 * A statement that does not plan is a GRACEFUL_FAILURE SQL_ERROR with the
 * planner's message.
 */
final class Explain implements SystemProcedure {
  private final Database database;

  Explain(Database database) {
    this.database = database;
  }

  @Override
  public String name() {
    return "@Explain";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(sql)");
    final String sql = parameters.text(0, "sql");
    final PlannedStatement planned;
    try {
      planned = new SqlPlanner(database.catalog().schema(), database.adHocStatistics()).plan(sql, false);
    } catch (PlanningException e) {
      handler.onResponse(Answers.sqlError(e.getMessage()));
      return true;
    }
    final ResultTableBuilder table = new ResultTableBuilder().column("PLAN", ValueType.VARCHAR);
    PlanText.addRows(table, planned);
    handler.onResponse(Answers.table(table.build()));
    return true;
  }
}
