package org.partita.server.cli.shell;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

/**
 * Prints a result table as aligned text: a header, a rule, one line per
 * row (numbers right-aligned, NULL as "NULL", VARBINARY in hex), then the
 * row count. Stateless.
 */
final class TablePrinter {
  private static final int MAX_CELL = 200;

  private TablePrinter() {}

  static void print(ResultTable table, PrintStream out) {
    final int columns = table.columnCount();
    final List<String[]> rows = new ArrayList<>();
    final int[] widths = new int[columns];
    for (int c = 0; c < columns; c++) {
      widths[c] = table.columnName(c).length();
    }
    table.resetRowPosition();
    while (table.advanceRow()) {
      final String[] cells = new String[columns];
      for (int c = 0; c < columns; c++) {
        cells[c] = cell(table, c);
        widths[c] = Math.max(widths[c], cells[c].length());
      }
      rows.add(cells);
    }
    table.resetRowPosition();
    final StringBuilder line = new StringBuilder();
    for (int c = 0; c < columns; c++) {
      pad(line, table.columnName(c), widths[c], false, c);
    }
    out.println(line.toString().stripTrailing());
    line.setLength(0);
    for (int c = 0; c < columns; c++) {
      pad(line, "-".repeat(widths[c]), widths[c], false, c);
    }
    out.println(line.toString().stripTrailing());
    for (String[] cells : rows) {
      line.setLength(0);
      for (int c = 0; c < columns; c++) {
        pad(line, cells[c], widths[c], table.columnType(c).isNumeric(), c);
      }
      out.println(line.toString().stripTrailing());
    }
    out.println("(" + rows.size() + (rows.size() == 1 ? " row)" : " rows)"));
  }

  private static void pad(StringBuilder line, String text, int width, boolean right, int column) {
    if (column > 0) {
      line.append("  ");
    }
    final String padding = " ".repeat(width - text.length());
    line.append(right ? padding + text : text + padding);
  }

  private static String cell(ResultTable table, int column) {
    final Object value = table.getObject(column);
    if (table.wasNull() || value == null) {
      return "NULL";
    }
    final String text;
    if (table.columnType(column) == ValueType.VARBINARY) {
      text = hex(table.getBytes(column));
    } else if (value instanceof java.math.BigDecimal d) {
      text = d.stripTrailingZeros().toPlainString();
    } else {
      text = String.valueOf(value);
    }
    return text.length() <= MAX_CELL ? text : text.substring(0, MAX_CELL) + "...";
  }

  private static String hex(byte[] bytes) {
    final StringBuilder s = new StringBuilder(bytes.length * 2);
    for (byte b : bytes) {
      s.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return s.toString();
  }
}
