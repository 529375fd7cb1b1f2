package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.planner.ExplainPrinter;
import org.partita.server.planner.SqlPlanner;
import org.partita.server.planner.TableStatistics;

/**
 * Ad-hoc SQL is planned with the engines' row counts (docs/sql.md, "How
 * joins run"): a partitioned table's rows summed over the partitions, a
 * replicated table's from one copy; a join of a big and a small table
 * probes with the big one whatever the textual order once the counts show
 * the difference.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RowCountsTest {
  private static final String SCHEMA = String.join("\n",
      "CREATE TABLE big (id BIGINT NOT NULL PRIMARY KEY, k INTEGER);",
      "PARTITION TABLE big ON COLUMN id;",
      "CREATE TABLE small (id BIGINT NOT NULL PRIMARY KEY, k INTEGER);");
  private static final String JOIN = "SELECT COUNT(*) FROM small, big WHERE small.k = big.k";

  private Database db;

  @AfterEach
  void close() throws Exception {
    db.close();
  }

  private String explain() throws Exception {
    return ExplainPrinter.explain(new SqlPlanner(db.catalog().schema(), db.adHocStatistics()).plan(JOIN, false));
  }

  /** Waits (at most 30 s) until the published counts say {@code rows} for {@code table}. */
  private void awaitCount(String table, long rows) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (db.adHocStatistics().rowCount(table) != rows) {
      assertTrue(System.nanoTime() < deadline, table + " never counted " + rows + " rows: "
          + db.adHocStatistics().rowCount(table));
      Thread.sleep(10);
    }
  }

  /** Regression: counts that moved within one power of two were kept at their first value (only the epoch should). */
  @Test
  void shouldPublishCountsThatMoveWithinOnePowerOfTwo() throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("counts.sql", SCHEMA))), 2);
    insertBig(0, 2100);
    awaitCount("BIG", 2100);
    insertBig(2100, 2200);
    awaitCount("BIG", 2200);
  }

  private void insertBig(long from, long to) {
    for (long id = from; id < to; id += 100) {
      final StringBuilder values = new StringBuilder();
      for (long i = id; i < Math.min(id + 100, to); i++) {
        values.append(i == id ? "" : ", ").append('(').append(i).append(", ").append(i % 7).append(')');
      }
      assertTrue(db.adHocSync("INSERT INTO big VALUES " + values).ok());
    }
  }

  @Test
  void shouldOrderAnAdHocJoinByTheEnginesRowCounts() throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("counts.sql", SCHEMA))), 2);
    awaitCount("BIG", 0);
    insertBig(0, 3000);
    assertTrue(db.adHocSync("INSERT INTO small VALUES (1, 1), (2, 2), (3, 3)").ok());

    awaitCount("BIG", 3000);
    awaitCount("SMALL", 3);
    final String plan = explain();
    assertTrue(plan.indexOf("SEQ SCAN BIG") < plan.indexOf("SEQ SCAN SMALL"), "probes with big:\n" + plan);
    final String blind = ExplainPrinter.explain(new SqlPlanner(db.catalog().schema(), TableStatistics.UNKNOWN)
        .plan(JOIN, false));
    assertTrue(blind.indexOf("SEQ SCAN SMALL") < blind.indexOf("SEQ SCAN BIG"), "without counts, FROM order:\n"
        + blind);
    final TableStatistics rows = db.adHocStatistics();
    assertEquals(3000, rows.rowCount("BIG"), "summed over both partitions");
    assertEquals(3, rows.rowCount("SMALL"), "one copy of a replicated table");
    assertEquals(-1, rows.rowCount("NOPE"));
    final var answer = db.adHocSync(JOIN);
    answer.results().get(0).advanceRow();
    assertEquals(3 * 429, answer.results().get(0).getLong(0), "k = 1, 2 and 3 each hold 429 of the 3,000 rows");
  }
}
