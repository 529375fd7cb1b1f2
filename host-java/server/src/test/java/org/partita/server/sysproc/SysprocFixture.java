package org.partita.server.sysproc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;
import org.partita.server.database.SqlRows;
import org.partita.server.stats.ConnectionSnapshot;
import org.partita.server.stats.ProcedureStatistics;

/**
 * Test fixture: a Database of a small schema (partitioned and replicated
 * tables, a materialized and a plain view, SQL and Java procedures) with
 * SystemProcedures in front of it, as the dispatcher uses them.
 */
final class SysprocFixture implements AutoCloseable {
  static final String SCHEMA = String.join("\n",
      "CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, grp INTEGER DEFAULT 7, name VARCHAR(20), price DECIMAL);",
      "PARTITION TABLE items ON COLUMN id;",
      "CREATE INDEX items_by_grp ON items (grp);",
      "CREATE TABLE groups (grp INTEGER NOT NULL PRIMARY KEY, label VARCHAR(10) NOT NULL);",
      "CREATE VIEW items_per_group (grp, items) AS SELECT grp, COUNT(*) FROM items GROUP BY grp;",
      "CREATE VIEW items_per_id (id, items) AS SELECT id, COUNT(*) FROM items GROUP BY id;",
      "CREATE VIEW cheap_items AS SELECT id, name FROM items WHERE price < 10;",
      "CREATE PROCEDURE ItemName PARTITION ON TABLE items COLUMN id AS SELECT name FROM items WHERE id = ?;",
      "CREATE PROCEDURE PARTITION ON TABLE items COLUMN id PARAMETER 1 FROM CLASS org.partita.server.sysproc.RenameItem;",
      "CREATE PROCEDURE FROM CLASS org.partita.server.sysproc.Hold;");
  static final ServerIdentity IDENTITY = new ServerIdentity(3, "127.0.0.1", 21212, 8080, 1_700_000_000_000L,
      "Partita test");

  final Database db;
  final ProcedureStatistics statistics = new ProcedureStatistics();
  final List<ConnectionSnapshot> connections = new CopyOnWriteArrayList<>();
  final AtomicInteger shutdowns = new AtomicInteger();
  final SystemProcedures sysprocs;

  SysprocFixture(int partitions) throws Exception {
    this(partitions, 1024, Database.DEFAULT_COORDINATOR_CAPACITY);
  }

  SysprocFixture(int partitions, int siteQueueCapacity, int coordinatorCapacity) throws Exception {
    db = Database.open(new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("sysproc.sql", SCHEMA))), partitions, siteQueueCapacity, coordinatorCapacity);
    sysprocs = new SystemProcedures(db, statistics, () -> List.copyOf(connections), () -> IDENTITY,
        shutdowns::incrementAndGet);
  }

  /** Calls {@code name} as the dispatcher would and waits (5 s at most) for the answer; fails on backpressure. */
  ClientResponse call(String name, Object... params) throws Exception {
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    final AtomicInteger answers = new AtomicInteger();
    assertTrue(sysprocs.call(name, params, r -> {
      answers.incrementAndGet();
      answer.complete(r);
    }), name + " was refused (backpressure)");
    final ClientResponse response = answer.get(5, TimeUnit.SECONDS);
    assertEquals(1, answers.get(), "answered exactly once");
    return response;
  }

  /** Calls {@code name}, requires success with one table, and returns that table. */
  ResultTable table(String name, Object... params) throws Exception {
    final ClientResponse r = call(name, params);
    assertTrue(r.ok(), () -> name + " -> " + r);
    assertEquals(1, r.results().size(), name + " answers one table");
    return r.results().get(0);
  }

  /** The table's rows as "a|b|NULL" lines. */
  static List<String> rows(ResultTable t) {
    return SqlRows.rows(t);
  }

  /** The table's column names, in order. */
  static List<String> columns(ResultTable t) {
    final List<String> names = new ArrayList<>();
    for (int c = 0; c < t.columnCount(); c++) {
      names.add(t.columnName(c));
    }
    return names;
  }

  @Override
  public void close() throws Exception {
    Hold.release.countDown();
    db.close();
  }
}
