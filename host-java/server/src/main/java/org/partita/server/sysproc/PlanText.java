package org.partita.server.sysproc;

import java.util.Arrays;
import org.partita.client.ResultTableBuilder;
import org.partita.server.planner.ExplainPrinter;
import org.partita.server.planner.PlannedStatement;

/** Adds a statement's plan (ExplainPrinter's text) to a table, one row per line. */
final class PlanText {
  private PlanText() {}

  /** Adds one row per plan line: {@code prefix} values, then the line. */
  static void addRows(ResultTableBuilder table, PlannedStatement statement, Object... prefix) {
    for (String line : ExplainPrinter.explain(statement).split("\n")) {
      final Object[] row = Arrays.copyOf(prefix, prefix.length + 1);
      row[prefix.length] = line;
      table.row(row);
    }
  }
}
