package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.partita.client.ClientResponse;

class DatabaseTest {
  private Database db;

  @AfterEach
  void close() throws Exception {
    if (db != null) {
      db.close();
    }
  }

  private ClientResponse ok(String sql, Object... params) {
    return SqlRows.ok(db, sql, params);
  }

  private List<String> rows(String sql, Object... params) {
    return SqlRows.rows(db, sql, params);
  }

  private List<String> sortedRows(String sql, Object... params) {
    return SqlRows.sortedRows(db, sql, params);
  }


  private void openWithItems(int partitions) throws Exception {
    db = Database.openEmpty(partitions);
    ok("CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER, name VARCHAR(20), price DECIMAL)");
    ok("PARTITION TABLE items ON COLUMN id");
    ok("CREATE TABLE groups (grp INTEGER PRIMARY KEY, label VARCHAR(10))");
    for (int i = 1; i <= 20; i++) {
      ok("INSERT INTO items VALUES (?, ?, ?, ?)", (long) i, i % 3, "item" + i, new java.math.BigDecimal(i + ".50"));
    }
    ok("INSERT INTO groups VALUES (0, 'zero')");
    ok("INSERT INTO groups VALUES (1, 'one')");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 3})
  void shouldAnswerQueriesTheSameOnAnyNumberOfPartitions(int partitions) throws Exception {
    openWithItems(partitions);
    assertEquals(List.of("20"), rows("SELECT COUNT(*) FROM items"));
    assertEquals(List.of("item7"), rows("SELECT name FROM items WHERE id = 7"));
    assertEquals(List.of("0|6", "1|7", "2|7"), sortedRows("SELECT grp, COUNT(*) FROM items GROUP BY grp"));
    assertEquals(List.of("20|19", "19|18"), rows("SELECT id, id - 1 FROM items ORDER BY id DESC LIMIT 2"));
    assertEquals(List.of("3|4"), rows("SELECT id, id + 1 FROM items ORDER BY id LIMIT 1 OFFSET 2"));
    assertEquals(List.of("0|zero|6", "1|one|7"), sortedRows(
        "SELECT g.grp, g.label, COUNT(*) FROM items i JOIN groups g ON i.grp = g.grp GROUP BY g.grp, g.label"));
    assertEquals(List.of("11.000000000000"), rows("SELECT AVG(price) FROM items WHERE id <= 19 AND id >= 2"));
    assertEquals(List.of("3"), rows("SELECT COUNT(DISTINCT grp) FROM items"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRouteEachRowOfAMultiRowInsertToItsPartition(int partitions) throws Exception {
    openWithItems(partitions);
    assertEquals(List.of("3"), rows("INSERT INTO items (id, name) VALUES (101, 'a'), (?, 'b'), (103, ?)", 102L, "c"));
    assertEquals(List.of("101|a", "102|b", "103|c"), sortedRows("SELECT id, name FROM items WHERE id > 100"));
    for (long id = 101; id <= 103; id++) {
      assertEquals(1, rows("SELECT name FROM items WHERE id = ?", id).size(), "row " + id + " on its partition");
    }
    final ClientResponse duplicate = db.adHocSync("INSERT INTO items (id) VALUES (201), (202), (5), (203)");
    assertEquals("CONSTRAINT_VIOLATION", duplicate.errorName());
    assertEquals(List.of("23"), rows("SELECT COUNT(*) FROM items"), "no row of the failed INSERT remains");
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4})
  void shouldRollBackEveryPartitionWhenAWriteFails(int partitions) throws Exception {
    openWithItems(partitions);
    assertEquals(List.of("20"), rows("UPDATE items SET grp = grp + 10"));
    final ClientResponse duplicate = db.adHocSync("INSERT INTO items VALUES (5, 1, 'again', 1)");
    assertFalse(duplicate.ok());
    assertEquals("CONSTRAINT_VIOLATION", duplicate.errorName());
    assertEquals(List.of("20"), rows("DELETE FROM items WHERE grp >= 10"));
    assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM items"));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void shouldChangeTheSchemaWithoutLosingRows(int partitions) throws Exception {
    openWithItems(partitions);
    ok("CREATE INDEX items_by_name ON items (name)");
    assertEquals(List.of("4"), rows("SELECT id FROM items WHERE name = 'item4'"));
    assertEquals(List.of("item1", "item10", "item11"), rows("SELECT name FROM items ORDER BY name LIMIT 3"));
    assertEquals(List.of("item9", "item8"), rows("SELECT name FROM items ORDER BY name DESC LIMIT 2"));
    assertEquals(List.of("item12", "item13"), rows("SELECT name FROM items WHERE name > 'item11' ORDER BY name LIMIT 2"));
    ok("CREATE VIEW per_group (grp, n, total) AS SELECT grp, COUNT(*), SUM(id) FROM items GROUP BY grp");
    assertEquals(List.of("0|6|63", "1|7|70", "2|7|77"), sortedRows(
        "SELECT grp, SUM(n), SUM(total) FROM per_group GROUP BY grp"));
    assertEquals(List.of("0|6|63", "1|7|70", "2|7|77"), rows("SELECT grp, n, total FROM per_group ORDER BY grp"));
    assertEquals(List.of("1|7", "2|7"), rows("SELECT grp, n FROM per_group WHERE n > 6 ORDER BY grp"));
    assertEquals(List.of("3"), rows("SELECT COUNT(*) FROM per_group"));
    final ClientResponse bad = db.adHocSync("CREATE TABLE items (x INTEGER)");
    assertFalse(bad.ok());
    assertTrue(bad.message().contains("already exists"), bad.message());
    ok("DROP VIEW per_group");
    ok("DROP TABLE groups");
    assertFalse(db.adHocSync("SELECT * FROM groups").ok());
    assertEquals(List.of("20"), rows("SELECT COUNT(*) FROM items"));
  }
}
