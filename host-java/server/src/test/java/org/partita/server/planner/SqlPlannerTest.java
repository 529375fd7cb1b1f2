package org.partita.server.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.partita.proto.ValueType;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.planner.PlannedStatement.Distribution;

class SqlPlannerTest {
  private static SqlPlanner planner;

  @BeforeAll
  static void schema() throws Exception {
    planner = new SqlPlanner(new CatalogCompiler(SqlPlannerTest.class.getClassLoader()).compile(List.of(
        new SourceFile("test.sql", String.join("\n",
            "CREATE TABLE orders (id BIGINT NOT NULL PRIMARY KEY, customer INTEGER NOT NULL, total DECIMAL,",
            "  placed TIMESTAMP, note VARCHAR(40));",
            "PARTITION TABLE orders ON COLUMN id;",
            "CREATE INDEX orders_by_customer ON orders (customer, placed);",
            "CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR(30) NOT NULL);",
            "CREATE TABLE lines (order_id BIGINT NOT NULL, item INTEGER NOT NULL, qty INTEGER);",
            "PARTITION TABLE lines ON COLUMN order_id;"))))
        .schema());
  }

  private static String explain(String sql) throws PlanningException {
    return ExplainPrinter.explain(planner.plan(sql, false));
  }

  @Test
  void shouldLookUpThePrimaryKeyOnOnePartition() throws Exception {
    final PlannedStatement p = planner.plan("SELECT note FROM orders WHERE id = ?", true);
    assertEquals(Distribution.SINGLE_PARTITION, p.distribution());
    assertEquals(0, p.partitionParameter());
    assertEquals(List.of(ValueType.VALUE_TYPE_BIGINT), p.parameterTypes());
    assertTrue(explain("SELECT note FROM orders WHERE id = ?").contains("INDEX SCAN ORDERS using PK_ORDERS key (?1)"));
  }

  @Test
  void shouldUseAnOrderedIndexPrefixAndRange() throws Exception {
    final String plan = explain("SELECT id FROM orders WHERE customer = 5 AND placed >= ?");
    assertTrue(plan.contains("using ORDERS_BY_CUSTOMER from [5, ?1]"), plan);
    assertTrue(plan.contains("EVERY PARTITION"), plan);
  }

  @Test
  void shouldServeOrderByFromAnOrderedIndex() throws Exception {
    final String byPlaced = explain("SELECT id FROM orders WHERE customer = ? ORDER BY placed DESC LIMIT 3");
    assertTrue(byPlaced.contains("using ORDERS_BY_CUSTOMER from [?1] to [?1] backward"), byPlaced);
    assertTrue(!byPlaced.contains("SORT") || byPlaced.indexOf("SORT") > byPlaced.indexOf("coordinator"), byPlaced);
    final String whole = explain("SELECT customer, placed FROM orders ORDER BY customer, placed");
    assertTrue(whole.contains("INDEX SCAN ORDERS using ORDERS_BY_CUSTOMER"), whole);
    final String mixed = explain("SELECT id FROM orders WHERE customer = 1 ORDER BY placed, id");
    assertTrue(mixed.contains("SORT"), "id is not in the index: " + mixed);
  }

  @Test
  void shouldAggregateInTwoPhasesAcrossPartitions() throws Exception {
    final String plan = explain("SELECT customer, AVG(total) FROM orders GROUP BY customer");
    assertTrue(plan.contains("AGGREGATE PARTIAL"), plan);
    assertTrue(plan.contains("AGGREGATE MERGE"), plan);
  }

  @Test
  void shouldPushLimitIntoEveryPartition() throws Exception {
    final String plan = explain("SELECT id FROM orders ORDER BY id DESC LIMIT 3 OFFSET 2");
    assertTrue(plan.contains("LIMIT ((3 + 2))") || plan.contains("LIMIT (3 + 2)"), plan);
  }

  @Test
  void shouldRunCoLocatedJoinsInsideEachPartition() throws Exception {
    final PlannedStatement p = planner.plan(
        "SELECT o.id, l.item FROM orders o JOIN lines l ON l.order_id = o.id WHERE o.id = 9", false);
    assertEquals(Distribution.SINGLE_PARTITION, p.distribution());
    assertEquals(9L, p.partitionValue().getIntValue());
  }

  @Test
  void shouldJoinNonCoLocatedTablesAtTheCoordinator() throws Exception {
    final PlannedStatement p = planner.plan("SELECT o.id FROM orders o, lines l WHERE l.item = o.customer", false);
    assertEquals(Distribution.EVERY_PARTITION, p.distribution());
    assertEquals(2, p.fragments().size());
  }

  @Test
  void shouldWriteReplicatedTablesEverywhere() throws Exception {
    assertEquals(Distribution.REPLICATED_WRITE,
        planner.plan("INSERT INTO customers VALUES (1, 'a')", false).distribution());
    final PlanningException e = assertThrows(PlanningException.class,
        () -> planner.plan("UPDATE customers SET name = 'b'", true));
    assertTrue(e.getMessage().contains("single-partition procedure cannot write a replicated table"), e.getMessage());
  }

  @Test
  void shouldExplainWhyAStatementIsNotSinglePartition() {
    final PlanningException e = assertThrows(PlanningException.class,
        () -> planner.plan("SELECT COUNT(*) FROM orders WHERE customer = ?", true));
    assertTrue(e.getMessage().contains("needs every partition"), e.getMessage());
  }

  @Test
  void shouldInferParameterTypesFromColumns() throws Exception {
    final PlannedStatement p = planner.plan(
        "UPDATE orders SET note = ?, total = total + ? WHERE id = ? AND placed < ?", false);
    assertEquals(List.of(ValueType.VALUE_TYPE_VARCHAR, ValueType.VALUE_TYPE_DECIMAL, ValueType.VALUE_TYPE_BIGINT,
        ValueType.VALUE_TYPE_TIMESTAMP), p.parameterTypes());
  }

  @Test
  void shouldRejectBadStatementsWithClearMessages() {
    assertMessage("SELECT nope FROM orders", "unknown column NOPE");
    assertMessage("SELECT id FROM orders, customers WHERE id = 1", "column ID is ambiguous");
    assertMessage("SELECT * FROM missing", "unknown table MISSING");
    assertMessage("SELECT id FROM orders WHERE note = 5", "cannot compare VARCHAR with BIGINT");
    assertMessage("SELECT ? FROM orders", "cannot infer the type of parameter 1");
    assertMessage("SELECT customer, note FROM orders GROUP BY customer", "must appear in GROUP BY");
    assertMessage("SELECT id FROM orders WHERE COUNT(*) > 1", "not allowed in WHERE");
    assertMessage("UPDATE orders SET id = 3", "partitioning column");
    assertMessage("INSERT INTO orders (id, nope) VALUES (1, 2)", "has no column NOPE");
    assertMessage("INSERT INTO orders (id) VALUES (1, 2)", "gives 2 values for 1 columns");
    assertMessage("SELEC id FROM orders", "syntax error at line 1, column 1");
  }

  private static void assertMessage(String sql, String expected) {
    final PlanningException e = assertThrows(PlanningException.class, () -> planner.plan(sql, false), sql);
    assertTrue(e.getMessage().contains(expected), sql + " -> " + e.getMessage());
  }
}
