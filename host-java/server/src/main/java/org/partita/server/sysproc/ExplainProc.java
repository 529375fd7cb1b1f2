package org.partita.server.sysproc;

import org.partita.proto.ErrorCode;
import java.util.Map;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.CompiledStatement;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @ExplainProc(name)}: the plan of every statement of a user
 * procedure as compiled, one row per line (STATEMENT_NAME, PLAN); a SQL
 * procedure's one statement is named SQL. An unknown procedure is REJECTED
 * NOT_FOUND.
 */
final class ExplainProc implements SystemProcedure {
  private final Database database;

  ExplainProc(Database database) {
    this.database = database;
  }

  @Override
  public String name() {
    return "@ExplainProc";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(procedure)");
    final String name = parameters.text(0, "procedure");
    final CompiledProcedure procedure = database.catalog().procedure(name).orElse(null);
    if (procedure == null) {
      handler.onResponse(Answers.rejected(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND, "procedure " + name + " does not exist"));
      return true;
    }
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("STATEMENT_NAME", ValueType.VARCHAR)
        .column("PLAN", ValueType.VARCHAR);
    for (Map.Entry<String, CompiledStatement> statement : procedure.statements().entrySet()) {
      PlanText.addRows(table, statement.getValue().planned(), statement.getKey());
    }
    handler.onResponse(Answers.table(table.build()));
    return true;
  }
}
