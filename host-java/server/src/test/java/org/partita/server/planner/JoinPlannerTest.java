package org.partita.server.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.partita.server.catalog.Schema;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;

/** Join order, join kinds and predicate placement, read from the plans' EXPLAIN text. */
class JoinPlannerTest {
  private static Schema schema;

  @BeforeAll
  static void schema() throws Exception {
    schema = new CatalogCompiler(JoinPlannerTest.class.getClassLoader()).compile(List.of(
        new SourceFile("joins.sql", String.join("\n",
            "CREATE TABLE big (id INTEGER NOT NULL, k INTEGER, v VARCHAR(10));",
            "CREATE TABLE mid (id INTEGER NOT NULL, k INTEGER);",
            "CREATE TABLE small (id INTEGER NOT NULL, k INTEGER);",
            "CREATE TABLE keyed (id INTEGER NOT NULL PRIMARY KEY, k INTEGER);",
            "CREATE TABLE p1 (id INTEGER NOT NULL, k INTEGER);",
            "PARTITION TABLE p1 ON COLUMN id;",
            "CREATE TABLE p2 (id INTEGER NOT NULL, k INTEGER);",
            "PARTITION TABLE p2 ON COLUMN id;"))))
        .schema();
  }

  private static final TableStatistics COUNTS =
      TableStatistics.of(Map.of("BIG", 100_000L, "MID", 1_000L, "SMALL", 10L, "KEYED", 50L));

  private static String explain(String sql) throws PlanningException {
    return ExplainPrinter.explain(new SqlPlanner(schema, COUNTS).plan(sql, false));
  }

  /**
   * Where {@code scan} is printed. EXPLAIN prints a join's outer child first, so in a left-deep
   * tree the first table joined comes first.
   */
  private static int position(String plan, String scan) {
    final int at = plan.indexOf(scan);
    assertTrue(at >= 0, scan + " not in:\n" + plan);
    return at;
  }

  @Test
  void shouldHashJoinOnAnEqualityNoIndexServes() throws Exception {
    final String plan = explain("SELECT big.v FROM big JOIN mid ON big.k = mid.k");
    assertTrue(plan.contains("HASH INNER JOIN"), plan);
    assertFalse(plan.contains("NESTED LOOP"), plan);
  }

  @Test
  void shouldProbeWithTheBigTableAndBuildTheSmallOnesWhateverTheTextualOrder() throws Exception {
    final String plan = explain("SELECT big.v, small.id FROM small, mid, big WHERE big.k = mid.k AND mid.id = small.id");
    assertTrue(position(plan, "SEQ SCAN BIG") < position(plan, "SEQ SCAN MID"), plan);
    assertTrue(position(plan, "SEQ SCAN MID") < position(plan, "SEQ SCAN SMALL"), plan);
    assertTrue(plan.contains("PROJECT $5, $6, $3, $4, $0, $1, $2"), "columns back in FROM order:\n" + plan);
  }

  @Test
  void shouldNeverFormACrossProductWhenEqualitiesLinkTheTables() throws Exception {
    // Textual order puts two unlinked tables next to each other (big, small).
    final String plan = explain(
        "SELECT COUNT(*) FROM big, small, mid WHERE big.k = mid.k AND mid.id = small.id AND small.k = 3");
    assertFalse(plan.contains("NESTED LOOP"), plan);
    assertEquals(2, plan.split("HASH INNER JOIN", -1).length - 1, plan);
  }

  @Test
  void shouldPushEachConjunctToTheEarliestTableThatCanEvaluateIt() throws Exception {
    final String plan = explain("SELECT big.v FROM big JOIN small ON big.id = small.id WHERE big.k = 7 AND small.k > 2");
    assertTrue(plan.contains("SEQ SCAN BIG where ($1 = 7)"), plan);
    assertTrue(plan.contains("SEQ SCAN SMALL where ($1 > 2)"), plan);
  }

  @Test
  void shouldPreferAnIndexJoinWhenAnIndexServesTheEquality() throws Exception {
    final String plan = explain("SELECT big.v FROM big JOIN keyed ON keyed.id = big.k");
    assertTrue(plan.contains("INDEX INNER JOIN with INDEX SCAN KEYED"), plan);
  }

  @Test
  void shouldKeepLeftJoinsInTextualOrderAndHashThem() throws Exception {
    final String plan = explain("SELECT big.v, small.k FROM big LEFT JOIN small ON big.k = small.k");
    assertTrue(plan.contains("HASH LEFT JOIN"), plan);
    assertTrue(position(plan, "SEQ SCAN BIG") < position(plan, "SEQ SCAN SMALL"), plan);
    assertEquals(1, plan.split("PROJECT", -1).length - 1, "no reordering projection:\n" + plan);
  }

  @Test
  void shouldHashJoinPartitionedTablesAtTheCoordinatorThroughReceive() throws Exception {
    final String plan = explain("SELECT p1.id FROM p1 JOIN p2 ON p1.k = p2.k");
    assertTrue(plan.contains("EVERY PARTITION"), plan);
    assertTrue(plan.contains("HASH INNER JOIN"), plan);
    assertTrue(plan.contains("RECEIVE dependency 1") && plan.contains("RECEIVE dependency 2"), plan);
  }

  @Test
  void shouldReadTheOneRowAUniqueKeyEqualityLeavesByItsIndexWithoutStatistics() throws Exception {
    final String plan = ExplainPrinter.explain(new SqlPlanner(schema).plan(
        "SELECT big.v FROM keyed, big WHERE keyed.id = 4 AND keyed.k = big.k", false));
    assertTrue(plan.contains("INDEX SCAN KEYED using PK_KEYED key (4)"), plan);
    assertFalse(plan.contains("NESTED LOOP"), plan);
  }
}
