package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.PartitaClient;
import org.partita.client.PartitionHash;

/**
 * Schema changes through ad-hoc DDL on a running two-site server: new
 * tables, partitioning, indexes, views and SQL procedures are usable at once
 * (also by a client connected before the change, which must refresh its
 * routes), existing rows survive, and a bad DDL statement is answered with a
 * clear error and changes nothing. Schema: {@code bank.sql}, with 200
 * accounts loaded first.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SchemaChangeTest {
  private static final int SITES = 2;
  private static final long ACCOUNTS = 200;
  private static ServerProcess server;
  /** Makes the schema changes. */
  private static PartitaClient admin;
  /** Connected before any change; only calls procedures. */
  private static PartitaClient user;

  @BeforeAll
  static void start() throws Exception {
    server = ServerProcess.schema("/bank.sql", SITES);
    admin = Clients.connect(server, "schema-admin");
    user = Clients.connect(server, "schema-user");
    for (long id = 1; id <= ACCOUNTS; id++) {
      admin.call("OpenAccount", id, (int) (id % 4 + 1), id, "a" + id);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (admin != null) {
      admin.close();
    }
    if (user != null) {
      user.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static void ddl(String statement) {
    final ClientResponse answer = Clients.adHoc(admin, statement);
    assertEquals(Status.SUCCESS, answer.status(), statement + " -> " + answer);
    assertEquals(List.of(), answer.results(), "DDL answers no table");
  }

  @Test
  void newTablePartitioningIndexViewAndProcedureAreUsableAtOnce() {
    ddl("CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, author VARCHAR(10) NOT NULL, body VARCHAR(40))");
    ddl("PARTITION TABLE notes ON COLUMN id");
    ddl("CREATE INDEX notes_by_author ON notes (author, id)");
    ddl("CREATE VIEW notes_per_author (author, notes) AS SELECT author, COUNT(*) FROM notes GROUP BY author");
    ddl("CREATE PROCEDURE NoteBody PARTITION ON TABLE notes COLUMN id AS SELECT body FROM notes WHERE id = ?");
    for (long id = 1; id <= 50; id++) {
      assertEquals(1, Clients.queryLong(admin, "INSERT INTO notes VALUES (?, ?, ?)", id, id % 2 == 0 ? "ann" : "bob",
          "note " + id));
    }
    for (long id : List.of(firstOn(0), firstOn(1))) {
      assertEquals(List.of(List.of("note " + id)), Clients.rows(user.call("NoteBody", id).results().get(0)));
    }
    assertEquals(List.of(List.of("ann", 25L), List.of("bob", 25L)), Clients.rows(Clients.query(admin,
        "SELECT author, notes FROM notes_per_author ORDER BY author")));
    assertEquals(List.of(List.of("NOTES", "ID", 0)), catalogRow("NOTES"));
    assertTrue(plan("SELECT id FROM notes WHERE author = ? ORDER BY id").contains("NOTES_BY_AUTHOR"),
        plan("SELECT id FROM notes WHERE author = ? ORDER BY id"));
  }

  @Test
  void existingRowsAndViewsSurviveSchemaChanges() {
    final List<Object> before = accountsState();
    ddl("CREATE TABLE audit (id BIGINT NOT NULL, what VARCHAR(20))");
    ddl("CREATE INDEX accounts_by_balance ON accounts (balance)");
    ddl("CREATE VIEW big_accounts (region_id, accounts) AS SELECT region_id, COUNT(*) FROM accounts"
        + " WHERE balance >= 100 GROUP BY region_id");
    assertEquals(before, accountsState());
    assertEquals(ACCOUNTS - 99, Clients.queryLong(admin, "SELECT SUM(accounts) FROM big_accounts"),
        "a view created over a table with rows is filled at once");
    assertTrue(plan("SELECT id FROM accounts WHERE balance BETWEEN ? AND ?").contains("ACCOUNTS_BY_BALANCE"));
    assertEquals(List.of(List.of(150L, 150L)), Clients.rows(Clients.query(admin,
        "SELECT id, balance FROM accounts WHERE balance BETWEEN 150 AND 150")));
    assertEquals(1, user.call("Deposit", 0L, 7L).firstLong(), "procedures of the old schema still run");
  }

  @Test
  void aBadDdlStatementIsAnsweredWithAClearErrorAndChangesNothing() {
    final List<Object> catalog = catalogState();
    final List<Object> rows = accountsState();
    assertDdlRefused("CREATE TABLE accounts (x INTEGER)", "ACCOUNTS");
    assertDdlRefused("CREATE TABLE broken (id BIGINT, id INTEGER)", "ID");
    assertDdlRefused("CREATE TABLE broken (id BIGINT, kind NOSUCHTYPE)", "NOSUCHTYPE");
    assertDdlRefused("PARTITION TABLE nosuch ON COLUMN id", "NOSUCH");
    assertDdlRefused("CREATE INDEX bad_index ON accounts (nope)", "NOPE");
    assertDdlRefused("CREATE VIEW bad_view (region_id, mean) AS SELECT region_id, AVG(balance) FROM accounts"
        + " GROUP BY region_id", "AVG");
    assertDdlRefused("CREATE PROCEDURE BadProc AS SELECT nope FROM accounts", "NOPE");
    assertDdlRefused("CREATE PROCEDURE BadPart PARTITION ON TABLE accounts COLUMN nope AS"
        + " SELECT id FROM accounts WHERE id = ?", "NOPE");
    assertDdlRefused("DROP TABLE accounts", "ACCOUNTS_BY_REGION");
    assertEquals(catalog, catalogState());
    assertEquals(rows, accountsState());
    assertEquals("PROCEDURE_NOT_FOUND", user.callAsync("BadProc").join().errorName());
  }

  @Test
  void aClientConnectedBeforeTheChangeRoutesTheNewProcedure() throws Exception {
    final int routesBefore = user.topology().routedProcedures();
    ddl("CREATE PROCEDURE AccountLabel PARTITION ON TABLE accounts COLUMN id AS"
        + " SELECT label FROM accounts WHERE id = ?");
    for (long id = 1; id <= 20; id++) {
      assertEquals(List.of(List.of("a" + id)), Clients.rows(user.call("AccountLabel", id).results().get(0)),
          "account " + id);
    }
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (user.topology().routedProcedures() <= routesBefore && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(user.topology().routedProcedures() > routesBefore,
        "the client must refresh its routes after a newer catalog version: " + user.topology());
  }

  @Test
  void aDroppedProcedureIsNoLongerFound() {
    ddl("CREATE PROCEDURE Shortlived AS SELECT COUNT(*) FROM regions");
    assertEquals(0, user.call("Shortlived").firstLong());
    ddl("DROP PROCEDURE Shortlived");
    final ClientResponse answer = user.callAsync("Shortlived").join();
    assertEquals(Status.REJECTED, answer.status(), answer.toString());
    assertEquals("PROCEDURE_NOT_FOUND", answer.errorName());
  }

  private static void assertDdlRefused(String statement, String named) {
    final ClientResponse answer = Clients.adHoc(admin, statement);
    assertEquals(Status.GRACEFUL_FAILURE, answer.status(), statement + " -> " + answer);
    assertEquals("SQL_ERROR", answer.errorName(), statement + " -> " + answer);
    assertTrue(answer.message().toUpperCase().contains(named), statement + " -> " + answer.message());
  }

  /** Everything @SystemCatalog says about the schema. */
  private static List<Object> catalogState() {
    return List.of(
        Clients.rows(admin.call("@SystemCatalog", "TABLES").results().get(0)),
        Clients.rows(admin.call("@SystemCatalog", "COLUMNS").results().get(0)),
        Clients.rows(admin.call("@SystemCatalog", "INDEXES").results().get(0)),
        Clients.rows(admin.call("@SystemCatalog", "PROCEDURES").results().get(0)));
  }

  private static List<Object> accountsState() {
    return List.of(
        Clients.rows(Clients.query(admin, "SELECT COUNT(*), SUM(balance), MIN(label), MAX(label) FROM accounts")),
        Clients.rows(admin.call("RegionTotals").results().get(0)));
  }

  private static List<List<Object>> catalogRow(String table) {
    final var t = admin.call("@SystemCatalog", "TABLES").results().get(0);
    while (t.advanceRow()) {
      if (t.getString("TABLE_NAME").equals(table)) {
        return List.of(List.of(table, t.getString("PARTITION_COLUMN"), (int) t.getLong("REPLICATED")));
      }
    }
    return List.of();
  }

  private static String plan(String sql) {
    final StringBuilder text = new StringBuilder();
    final var t = admin.call("@Explain", sql).results().get(0);
    while (t.advanceRow()) {
      text.append(t.getString(0)).append('\n');
    }
    return text.toString();
  }

  private static long firstOn(int partition) {
    long id = 1;
    while (PartitionHash.partition(id, SITES) != partition) {
      id++;
    }
    return id;
  }
}
