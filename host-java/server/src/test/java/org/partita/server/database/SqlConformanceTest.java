package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;

/**
 * SQL the sqllogictest corpus exercises (subqueries, SELECT without FROM,
 * operator spellings), on one partition with replicated tables and on four
 * with partitioned ones.
 */
class SqlConformanceTest {
  private Database db;

  @AfterEach
  void close() throws Exception {
    if (db != null) {
      db.close();
    }
  }

  private ClientResponse ok(String sql) {
    return SqlRows.ok(db, sql);
  }

  private List<String> sortedRows(String sql) {
    return SqlRows.sortedRows(db, sql);
  }


  /** t1(a, b): 1|10 2|20 3|NULL 4|20; t2(id, x): 1|20 2|NULL; partitioned on the first column when asked. */
  private void open(int partitions) throws Exception {
    db = Database.openEmpty(partitions);
    ok("CREATE TABLE t1 (a INTEGER NOT NULL, b INTEGER)");
    ok("CREATE TABLE t2 (id INTEGER NOT NULL, x INTEGER)");
    if (partitions > 1) {
      ok("PARTITION TABLE t1 ON COLUMN a");
      ok("PARTITION TABLE t2 ON COLUMN id");
    }
    for (String row : List.of("1, 10", "2, 20", "3, NULL", "4, 20")) {
      ok("INSERT INTO t1 VALUES (" + row + ")");
    }
    ok("INSERT INTO t2 VALUES (1, 20)");
    ok("INSERT INTO t2 VALUES (2, NULL)");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldEvaluateCorrelatedScalarSubqueries(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("1|0", "2|1", "3|0", "4|1"),
        sortedRows("SELECT a, (SELECT count(*) FROM t1 AS x WHERE x.b < t1.b) FROM t1"));
    assertEquals(List.of("2", "4"), sortedRows("SELECT a FROM t1 WHERE b > (SELECT avg(b) FROM t1)"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldEvaluateExistsAndInSubqueries(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("2", "4"), sortedRows("SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t1 AS x WHERE x.b < t1.b)"));
    assertEquals(List.of("1|NULL", "2|true", "3|NULL", "4|true"), sortedRows("SELECT a, b IN (SELECT x FROM t2) FROM t1"));
    assertEquals(List.of("false"), sortedRows("SELECT 1 IN (SELECT x FROM t2 WHERE x > 100)"));
    assertEquals(List.of("1", "3"), sortedRows("SELECT a FROM t1 WHERE NOT EXISTS (SELECT * FROM t2 WHERE x = b)"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRejectAScalarSubqueryOfSeveralRows(int partitions) throws Exception {
    open(partitions);
    final ClientResponse r = db.adHocSync("SELECT (SELECT b FROM t1)");
    assertFalse(r.ok());
    assertTrue(r.message().contains("more than one row"), r.message());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldSelectWithoutFromAndReadChainedSigns(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("1|-6"), sortedRows("SELECT - - 1, 2 * - + 3"));
    assertEquals(List.of("false|true"), sortedRows("SELECT 1 IN (), 1 NOT IN ()"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldInsertTheRowsOfASelect(int partitions) throws Exception {
    open(partitions);
    ok("CREATE TABLE t3 (a INTEGER NOT NULL, b BIGINT, c VARCHAR(5) DEFAULT 'd')");
    if (partitions > 1) {
      ok("PARTITION TABLE t3 ON COLUMN a");
    }
    assertEquals(List.of("3"), sortedRows("INSERT INTO t3 (a, b) SELECT a, b FROM t1 WHERE a > 1"));
    assertEquals(List.of("2|20|d", "3|NULL|d", "4|20|d"), sortedRows("SELECT * FROM t3"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1})
  void shouldInsertIntoAReplicatedTableFromAReplicatedOne(int partitions) throws Exception {
    open(partitions);
    ok("CREATE TABLE t4 (a INTEGER, b INTEGER)");
    ok("INSERT INTO t4 SELECT b, a FROM t1 WHERE b IS NOT NULL ORDER BY a LIMIT 2");
    assertEquals(List.of("10|1", "20|2"), sortedRows("SELECT * FROM t4"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldSumAndAverageDistinctValues(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("30|15.000000000000|3"), sortedRows("SELECT SUM(DISTINCT b), AVG(DISTINCT b * 1.0), COUNT(b) FROM t1"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldFlattenParenthesizedInnerJoins(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("1|1|20", "2|1|20"),
        sortedRows("SELECT t1.a, t2.id, t2.x FROM (t1 CROSS JOIN t2) WHERE t1.a < 3 AND t2.x = 20"));
    assertEquals(List.of("2"), sortedRows("SELECT count(*) FROM t2 AS y JOIN (t1 CROSS JOIN t2) ON y.id = t2.id"
        + " WHERE t1.a = 1"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldStoreRowsWhosePartitioningValueIsNull(int partitions) throws Exception {
    open(partitions);
    ok("CREATE TABLE n (k INTEGER, v INTEGER)");
    if (partitions > 1) {
      ok("PARTITION TABLE n ON COLUMN k");
    }
    ok("INSERT INTO n VALUES (NULL, 1)");
    ok("INSERT INTO n VALUES (2, 2)");
    assertEquals(List.of("NULL|1"), sortedRows("SELECT * FROM n WHERE k IS NULL"));
    assertEquals(List.of("2"), sortedRows("SELECT count(*) FROM n"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldCombineQueriesWithSetOperations(int partitions) throws Exception {
    open(partitions);
    assertEquals(List.of("10", "20", "20", "20", "NULL", "NULL"),
        sortedRows("SELECT b FROM t1 UNION ALL SELECT x FROM t2"));
    assertEquals(List.of("10", "20", "NULL"), sortedRows("SELECT b FROM t1 UNION SELECT x FROM t2"));
    assertEquals(List.of("20", "NULL"), sortedRows("SELECT b FROM t1 INTERSECT SELECT x FROM t2"));
    assertEquals(List.of("10"), sortedRows("SELECT b FROM t1 EXCEPT SELECT x FROM t2"));
    // INTERSECT first: {1} UNION ({2, 3} INTERSECT {3}).
    assertEquals(List.of("1", "3"), sortedRows("SELECT 1 UNION SELECT a FROM t1 WHERE a IN (2, 3)"
        + " INTERSECT SELECT 3"));
    assertEquals(List.of("4"), sortedRows("SELECT a FROM t1 UNION SELECT id FROM t2 ORDER BY 1 DESC LIMIT 1"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldKeepTheHalfOfABetweenThatAnIndexRangeDoesNotUse(int partitions) throws Exception {
    open(partitions);
    ok("CREATE INDEX t1_b ON t1 (b)");
    assertEquals(List.of(), sortedRows("SELECT a FROM t1 WHERE b < 92 AND b BETWEEN 32 AND 15"));
    assertEquals(List.of("1"), sortedRows("SELECT a FROM t1 WHERE b < 15 AND b BETWEEN 5 AND 30"));
    assertEquals(List.of("1"), sortedRows("SELECT a FROM t1 WHERE b > 5 AND b BETWEEN 0 AND 15"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldReadPlainViewsAndSubqueriesInFrom(int partitions) throws Exception {
    open(partitions);
    ok("CREATE VIEW big (k, v) AS SELECT a, b FROM t1 WHERE b >= 20");
    ok("CREATE VIEW big_keys AS SELECT k FROM big");
    assertEquals(List.of("2|20", "4|20"), sortedRows("SELECT * FROM big"));
    assertEquals(List.of("2", "4"), sortedRows("SELECT k FROM big_keys"));
    assertEquals(List.of("2|1"), sortedRows("SELECT big.k, t2.id FROM big JOIN t2 ON big.v = t2.x WHERE big.k < 3"));
    assertEquals(List.of("3"), sortedRows("SELECT count(*) FROM (SELECT a FROM t1 WHERE a > 1) AS s"));
    assertFalse(db.adHocSync("DROP VIEW big_keys").ok() == false);
    assertFalse(db.adHocSync("SELECT * FROM big_keys").ok());
    assertFalse(db.adHocSync("CREATE VIEW bad AS SELECT nope FROM t1").ok());
  }

  @ParameterizedTest
  @ValueSource(ints = {1})
  void shouldReadHexLiteralsFollowedBySpaces(int partitions) throws Exception {
    open(partitions);
    assertEquals(1, sortedRows("SELECT x'303132' ").size());
  }
}
