package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.procs.Gate;

/**
 * Regression: a call admitted while DROP PROCEDURE was under way ran another
 * procedure's statement. Statement ids are assigned by position, so dropping
 * InsertA renumbers InsertB and InsertC; a call to InsertB resolved against
 * the old catalog but run after the engines took the new one executed
 * InsertC's statement and wrote into table c. Each call must run against the
 * catalog its partition has when it runs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchemaChangeRaceTest {
  private static final String SCHEMA = String.join("\n",
      "CREATE TABLE a (id BIGINT NOT NULL PRIMARY KEY);",
      "CREATE TABLE b (id BIGINT NOT NULL PRIMARY KEY);",
      "CREATE TABLE c (id BIGINT NOT NULL PRIMARY KEY);",
      "PARTITION TABLE a ON COLUMN id;",
      "PARTITION TABLE b ON COLUMN id;",
      "PARTITION TABLE c ON COLUMN id;",
      "CREATE PROCEDURE PARTITION ON TABLE a COLUMN id FROM CLASS org.partita.server.database.procs.Gate;",
      "CREATE PROCEDURE InsertA PARTITION ON TABLE a COLUMN id AS INSERT INTO a VALUES (?);",
      "CREATE PROCEDURE InsertB PARTITION ON TABLE b COLUMN id AS INSERT INTO b VALUES (?);",
      "CREATE PROCEDURE InsertC PARTITION ON TABLE c COLUMN id AS INSERT INTO c VALUES (?);");

  private Database db;

  @AfterEach
  void close() throws Exception {
    Gate.open.countDown();
    if (db != null) {
      db.close();
    }
  }

  @Test
  void shouldRunACallAdmittedDuringDropProcedureAgainstTheCatalogItRunsWith() throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("race.sql", SCHEMA))), 1);
    Gate.entered = new CountDownLatch(1);
    Gate.open = new CountDownLatch(1);
    final CompletableFuture<ClientResponse> gate = db.call("Gate", 1L);
    assertTrue(Gate.entered.await(30, TimeUnit.SECONDS), "the gate procedure never started");

    final CompletableFuture<ClientResponse> drop = db.adHoc("DROP PROCEDURE InsertA");
    awaitQueued(1);
    final CompletableFuture<ClientResponse> insert = db.call("InsertB", 7L);
    Gate.open.countDown();

    assertTrue(gate.get(30, TimeUnit.SECONDS).ok());
    assertTrue(drop.get(30, TimeUnit.SECONDS).ok(), () -> drop.join().toString());
    final ClientResponse inserted = insert.get(30, TimeUnit.SECONDS);
    assertTrue(inserted.ok(), inserted::toString);
    assertEquals(1, count("b"), "InsertB wrote its own table");
    assertEquals(0, count("c"), "InsertB ran InsertC's statement");
    assertEquals(0, count("a"));
  }

  /** Waits until the partition's queue holds at least {@code n} items (the schema change is queued behind the gate). */
  private void awaitQueued(int n) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (db.partitionStatuses().get(0).queueDepth() < n) {
      assertTrue(System.nanoTime() < deadline, "the schema change never reached the partition's queue");
      Thread.onSpinWait();
    }
  }

  private long count(String table) {
    final ClientResponse r = db.adHocSync("SELECT COUNT(*) FROM " + table);
    assertTrue(r.ok(), r::toString);
    final ResultTable t = r.results().get(0);
    t.advanceRow();
    return t.getLong(0);
  }
}
