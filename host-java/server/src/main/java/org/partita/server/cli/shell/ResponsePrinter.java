package org.partita.server.cli.shell;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

/**
 * Prints successful answers for the shell: each result table aligned
 * ({@link TablePrinter}); a DML statement's count as {@code (3 rows affected)};
 * a plan as its lines. With {@code verbose} (interactive use) an answer
 * without tables prints {@code OK}. Confined to the shell's thread.
 */
final class ResponsePrinter {
  /** The column name of a DML statement's one-row count (docs/sql.md, "Writes"). */
  private static final String MODIFIED_TUPLES = "MODIFIED_TUPLES";
  private static final Set<String> DML = Set.of("INSERT", "UPSERT", "UPDATE", "DELETE");

  private final PrintStream out;
  private final boolean verbose;

  ResponsePrinter(PrintStream out, boolean verbose) {
    this.out = out;
    this.verbose = verbose;
  }

  /** Prints the answer to an {@code @AdHoc} of {@code sql}. */
  void printStatement(String sql, ClientResponse response) {
    if (isDml(sql) && printedCount(response)) {
      return;
    }
    printTables(response);
  }

  /** Prints the answer to a procedure call; a SQL procedure that is one DML statement prints its count. */
  void printProcedure(ClientResponse response) {
    if (response.appStatus() == 0 && response.appStatusMessage().isEmpty() && printedCount(response)) {
      return;
    }
    printTables(response);
  }

  /** Prints {@code (n rows affected)} iff the answer is exactly one DML count. */
  private boolean printedCount(ClientResponse response) {
    final List<ResultTable> tables = response.results();
    if (tables.size() != 1 || !isCount(tables.get(0))) {
      return false;
    }
    final ResultTable count = tables.get(0);
    count.advanceToRow(0);
    final long rows = count.getLong(0);
    count.resetRowPosition();
    out.println("(" + rows + (rows == 1 ? " row" : " rows") + " affected)");
    return true;
  }

  /** Prints every table of a procedure's answer, and the status it set, if any. */
  void printTables(ClientResponse response) {
    final List<ResultTable> tables = response.results();
    if (tables.isEmpty() && verbose) {
      out.println("OK");
    }
    for (int i = 0; i < tables.size(); i++) {
      if (i > 0) {
        out.println();
      }
      TablePrinter.print(tables.get(i), out);
    }
    if (response.appStatus() != 0 || !response.appStatusMessage().isEmpty()) {
      out.println("app status " + response.appStatus()
          + (response.appStatusMessage().isEmpty() ? "" : ": " + response.appStatusMessage()));
    }
  }

  /** Prints a plan ({@code @Explain}'s one VARCHAR column) as its lines. */
  void printPlan(ClientResponse response) {
    for (ResultTable table : response.results()) {
      table.resetRowPosition();
      while (table.advanceRow()) {
        out.println(table.getString(0));
      }
      table.resetRowPosition();
    }
  }

  private static boolean isDml(String sql) {
    final String text = sql.stripLeading();
    int end = 0;
    while (end < text.length() && Character.isLetter(text.charAt(end))) {
      end++;
    }
    return DML.contains(text.substring(0, end).toUpperCase(Locale.ROOT));
  }

  private static boolean isCount(ResultTable table) {
    return table.columnCount() == 1 && table.rowCount() == 1 && table.columnType(0) == ValueType.BIGINT
        && table.columnName(0).equalsIgnoreCase(MODIFIED_TUPLES);
  }
}
