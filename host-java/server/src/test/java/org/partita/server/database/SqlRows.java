package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

/** Test helper: runs ad-hoc SQL on a Database and renders result rows as "a|b|NULL" lines. */
public final class SqlRows {
  private SqlRows() {}

  /** Runs {@code sql}; fails the test when it does not succeed. */
  static ClientResponse ok(Database db, String sql, Object... params) {
    final ClientResponse r = db.adHocSync(sql, params);
    assertTrue(r.ok(), () -> sql + " -> " + r);
    return r;
  }

  /** The first result table's rows, in result order. */
  static List<String> rows(Database db, String sql, Object... params) {
    return rows(ok(db, sql, params).results().get(0));
  }

  /** The table's rows as "a|b|NULL" lines, in order. */
  public static List<String> rows(ResultTable t) {
    final List<String> rows = new ArrayList<>();
    t.resetRowPosition();
    while (t.advanceRow()) {
      final StringBuilder row = new StringBuilder();
      for (int c = 0; c < t.columnCount(); c++) {
        final Object v = t.getObject(c);
        row.append(c == 0 ? "" : "|").append(t.wasNull() ? "NULL" : v);
      }
      rows.add(row.toString());
    }
    return rows;
  }

  /** The first result table's rows, sorted. */
  static List<String> sortedRows(Database db, String sql, Object... params) {
    final List<String> r = rows(db, sql, params);
    Collections.sort(r);
    return r;
  }
}
