package org.partita.fault;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

/** Turns answers into the history's completion values (encoded JSON). Stateless. */
final class Results {
  private Results() {
  }

  /** The first column of the first row as a number, or null when there is no row or it is NULL. */
  static String firstValueOrNull(ClientResponse response) {
    final ResultTable table = response.results().get(0);
    if (!table.advanceRow()) {
      return "null";
    }
    final long v = table.getLong(0);
    return table.wasNull() ? "null" : Long.toString(v);
  }

  /** A procedure's long result (1 / 0) as true / false. */
  static String asBoolean(ClientResponse response) {
    return response.firstLong() != 0 ? "true" : "false";
  }

  /** Column {@code column} of every row, as a JSON array (NULL as null). */
  static String column(ClientResponse response, int column) {
    final ResultTable table = response.results().get(0);
    final List<String> values = new ArrayList<>();
    while (table.advanceRow()) {
      final long v = table.getLong(column);
      values.add(table.wasNull() ? "null" : Long.toString(v));
    }
    return Json.array(values);
  }

  /** Rows of (key, value) as a JSON object {"key": value}. */
  static String keyedValues(ClientResponse response) {
    final ResultTable table = response.results().get(0);
    final Map<String, String> values = new LinkedHashMap<>();
    while (table.advanceRow()) {
      final long key = table.getLong(0);
      final long v = table.getLong(1);
      values.put(Long.toString(key), table.wasNull() ? "null" : Long.toString(v));
    }
    return Json.object(values);
  }

  /** Every row of every table as text, one line per row: what the copies' checksums cover. */
  static String rows(ClientResponse response) {
    final StringBuilder out = new StringBuilder();
    for (ResultTable table : response.results()) {
      while (table.advanceRow()) {
        for (int c = 0; c < table.columnCount(); c++) {
          out.append(c == 0 ? "" : "\t").append(table.getObject(c));
        }
        out.append('\n');
      }
    }
    return out.toString();
  }
}
