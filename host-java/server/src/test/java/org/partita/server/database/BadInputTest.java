package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;

/** Bad SQL, values and parameters: each answered with a clear error, and nothing committed is lost. */
class BadInputTest {
  private Database db;

  @BeforeEach
  void open() throws Exception {
    db = Database.openEmpty(3);
    assertTrue(db.adHocSync("CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, small TINYINT, name VARCHAR(5),"
        + " amount DECIMAL, seen TIMESTAMP)").ok());
    assertTrue(db.adHocSync("PARTITION TABLE t ON COLUMN id").ok());
    assertTrue(db.adHocSync("CREATE VIEW by_name (name, n, total) AS SELECT name, COUNT(*), SUM(small) FROM t"
        + " GROUP BY name").ok());
    for (long i = 0; i < 30; i++) {
      assertTrue(db.adHocSync("INSERT INTO t VALUES (?, ?, ?, ?, NULL)", i, i % 7, "n" + (i % 3), i).ok());
    }
  }

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private void assertError(String expectedCode, String expectedText, String sql, Object... params) {
    final ClientResponse r = db.adHocSync(sql, params);
    assertFalse(r.ok(), sql);
    assertEquals(expectedCode, r.errorName(), () -> sql + " -> " + r);
    assertTrue(r.message().contains(expectedText), () -> sql + " -> " + r.message());
  }

  private void assertIntact() {
    final ResultTable count = db.adHocSync("SELECT COUNT(*), SUM(small) FROM t").results().get(0);
    count.advanceRow();
    assertEquals(30, count.getLong(0));
    assertEquals(85, count.getLong(1));
    final ResultTable view = db.adHocSync("SELECT SUM(n), SUM(total) FROM by_name").results().get(0);
    view.advanceRow();
    assertEquals(30, view.getLong(0));
    assertEquals(85, view.getLong(1));
  }

  @Test
  void shouldExplainBadValuesAndLeaveNoTrace() {
    assertError("VALUE_TOO_LONG", "", "INSERT INTO t VALUES (100, 1, 'toolong', 1, NULL)");
    assertError("NUMERIC_OUT_OF_RANGE", "", "INSERT INTO t VALUES (100, 300, 'a', 1, NULL)");
    assertError("CONSTRAINT_VIOLATION", "", "INSERT INTO t VALUES (5, 1, 'a', 1, NULL)");
    assertError("NOT_NULL_VIOLATION", "", "INSERT INTO t (small) VALUES (1)", new Object[0]);
    assertError("DIVISION_BY_ZERO", "", "UPDATE t SET small = small / 0");
    assertError("NUMERIC_OUT_OF_RANGE", "", "UPDATE t SET small = small + 125");
    assertIntact();
  }

  @Test
  void shouldExplainBadParameters() {
    assertError("BAD_PARAMETER", "parameter 1", "SELECT name FROM t WHERE id = ?", "seven");
    assertError("BAD_PARAMETER", "takes 1 parameter(s), 2 given", "SELECT name FROM t WHERE small = ?", 1L, 2L);
    assertError("BAD_PARAMETER", "", "UPDATE t SET amount = ? WHERE id = 1", new Object());
    assertIntact();
  }

  /** Regression: these were answered UNEXPECTED_FAILURE INTERNAL with a stack trace in the log. */
  @Test
  void shouldRejectDecimalParametersWithTooManyFractionDigitsAndTimestampsOutOfRange() {
    final ClientResponse decimal = db.adHocSync("UPDATE t SET amount = ? WHERE id = 1",
        new java.math.BigDecimal("0.0000000000001"));
    assertEquals(ClientResponse.Status.REJECTED, decimal.status(), decimal::toString);
    assertEquals("BAD_PARAMETER", decimal.errorName(), decimal::toString);
    assertTrue(decimal.message().contains("13 digits after the decimal point"), decimal::message);
    final ClientResponse huge = db.adHocSync("UPDATE t SET amount = ? WHERE id = 1", new java.math.BigDecimal("1e30"));
    assertEquals("BAD_PARAMETER", huge.errorName(), huge::toString);
    final ClientResponse timestamp = db.adHocSync("UPDATE t SET seen = ? WHERE id = 1", java.time.Instant.MAX);
    assertEquals(ClientResponse.Status.REJECTED, timestamp.status(), timestamp::toString);
    assertEquals("BAD_PARAMETER", timestamp.errorName(), timestamp::toString);
    assertTrue(timestamp.message().contains("outside the TIMESTAMP range"), timestamp::message);
    final ClientResponse exact = db.adHocSync("UPDATE t SET amount = ? WHERE id = 1",
        new java.math.BigDecimal("12.500000000000000"));
    assertTrue(exact.ok(), exact::toString);
    assertIntact();
  }

  @Test
  void shouldExplainBadSql() {
    assertError("SQL_ERROR", "syntax error", "SELEKT * FROM t");
    assertError("SQL_ERROR", "unknown table NOPE", "SELECT * FROM nope");
    assertError("SQL_ERROR", "has no column NOPE", "UPDATE t SET nope = 1");
    assertError("SQL_ERROR", "materialized view", "DELETE FROM by_name");
    assertError("SQL_ERROR", "@AdHoc:1:", "CREATE TABLE t (x INTEGER)");
    assertError("SQL_ERROR", "", "");
    assertIntact();
  }

  @Test
  void shouldSurviveMangledStatements() {
    final List<String> seeds = List.of(
        "SELECT id, name, amount FROM t WHERE id > 3 AND name LIKE 'n%' ORDER BY id DESC LIMIT 5",
        "SELECT name, COUNT(*), AVG(amount), MIN(small) FROM t GROUP BY name HAVING COUNT(*) > 1",
        "UPDATE t SET amount = amount * 2, small = small + 1 WHERE id BETWEEN 3 AND 9",
        "INSERT INTO t (id, small, name) VALUES (1000, 1, 'x')",
        "SELECT a.id, b.name FROM t a JOIN t b ON a.id = b.small WHERE a.amount IN (1, 2, 3)",
        "DELETE FROM t WHERE small IS NULL OR CAST(amount AS INTEGER) = 4",
        "SELECT CASE WHEN small > 2 THEN 'big' ELSE 'small' END, COALESCE(seen, NOW()) FROM t");
    final String pieces = " ()*,;'=<>+-/%.0123456789abcdefghijklmnopqrstuvwxyzNULLSELECTFROMWHERE?\"";
    final Random random = new Random(20261122);
    for (int i = 0; i < 3000; i++) {
      final StringBuilder sql = new StringBuilder(seeds.get(random.nextInt(seeds.size())));
      final int edits = 1 + random.nextInt(4);
      for (int e = 0; e < edits && sql.length() > 1; e++) {
        final int at = random.nextInt(sql.length());
        switch (random.nextInt(3)) {
          case 0 -> sql.deleteCharAt(at);
          case 1 -> sql.insert(at, pieces.charAt(random.nextInt(pieces.length())));
          default -> sql.setCharAt(at, pieces.charAt(random.nextInt(pieces.length())));
        }
      }
      final ClientResponse r = db.adHocSync(sql.toString());
      assertNotNull(r.status(), sql::toString);
      assertFalse(r.status() == ClientResponse.Status.UNEXPECTED_FAILURE, () -> sql + " -> " + r);
      assertFalse(r.message().contains("internal error"), () -> sql + " -> " + r);
    }
    assertTrue(db.adHocSync("SELECT COUNT(*) FROM t").ok(), "still serving");
  }
}
