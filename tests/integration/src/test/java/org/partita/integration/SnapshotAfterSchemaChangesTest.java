package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Snapshots taken after schema changes against real servers
 * (docs/durability.md, "Snapshots"): the snapshot carries the DDL since the
 * starting schema, recovery rebuilds that catalog, loads the snapshot and
 * replays only the log after its cut (schema changes included), and the
 * log before the cut is deleted. After kill -9 the tables, the view and a
 * DDL-created procedure equal what the server answered before it.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class SnapshotAfterSchemaChangesTest {
  private static final String PADDING = "x".repeat(500);

  @TempDir
  Path data;

  private ServerProcess start() throws Exception {
    // By-hand snapshots only (the size is never reached), which still truncate the log.
    return ServerProcess.start(List.of("--sites", "2", "--data-dir", data.toString(), "--log-segment-mb", "1",
        "--snapshot-log-size", "1024"));
  }

  private static void ok(ClientResponse response) {
    assertTrue(response.ok(), response.toString());
  }

  @Test
  void aSnapshotAfterSchemaChangesIsLoadedAtRecoveryAndTruncatesTheLog() throws Exception {
    final Path firstSegment = data.resolve("commandlog").resolve("segment-0000000001.log");
    List<List<Object>> before;
    try (ServerProcess server = start()) {
      try (PartitaClient client = Clients.connect(server, "ddl-snapshot")) {
        ok(Clients.adHoc(client, "CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, body VARCHAR(600), n BIGINT)"));
        ok(Clients.adHoc(client, "PARTITION TABLE notes ON COLUMN id"));
        ok(Clients.adHoc(client, "CREATE INDEX notes_by_n ON notes (n)"));
        ok(Clients.adHoc(client, "CREATE VIEW per_n (n, c) AS SELECT n, COUNT(*) FROM notes GROUP BY n"));
        ok(Clients.adHoc(client, "CREATE TABLE tags (name VARCHAR(10) NOT NULL)"));
        ok(Clients.adHoc(client, "CREATE PROCEDURE NoteAt PARTITION ON TABLE notes COLUMN id AS"
            + " SELECT body, n FROM notes WHERE id = ?"));
        insertNotes(client, 0, 2_500);  // over 1 MB of log: the first segment fills
        ok(Clients.adHoc(client, "INSERT INTO tags VALUES ('before')"));
        ok(Clients.adHoc(client, "INSERT INTO tags VALUES ('before')"));
        // Views created over rows that exist (computed by the schema change), one over a replicated table:
        // the snapshot carries their rows and recovery loads them.
        ok(Clients.adHoc(client, "CREATE VIEW late_per_n (n, c, total) AS SELECT n, COUNT(*), SUM(id) FROM notes"
            + " GROUP BY n"));
        ok(Clients.adHoc(client, "CREATE VIEW tag_count (name, c) AS SELECT name, COUNT(*) FROM tags GROUP BY name"));
        assertEquals("DONE", save(client));
        assertFalse(Files.exists(firstSegment), "the snapshot after schema changes truncated the log");
        ok(Clients.adHoc(client, "CREATE TABLE more (k BIGINT NOT NULL, v VARCHAR(20))"));
        ok(Clients.adHoc(client, "PARTITION TABLE more ON COLUMN k"));
        ok(Clients.adHoc(client, "CREATE INDEX more_by_v ON more (v)"));
        for (long k = 0; k < 30; k++) {
          ok(Clients.adHoc(client, "INSERT INTO more VALUES (?, ?)", k, "v" + k % 4));
        }
        ok(Clients.adHoc(client, "UPDATE notes SET n = n + 100 WHERE id < 50"));
        ok(Clients.adHoc(client, "DELETE FROM notes WHERE id >= 100 AND id < 120"));
        ok(Clients.adHoc(client, "INSERT INTO tags VALUES ('after')"));
        before = contents(client);
      }
      server.kill();
    }
    try (ServerProcess server = start()) {
      assertTrue(server.output().contains("recovery: loading snapshot"), server.output());
      assertFalse(server.output().contains("not using it"), "no snapshot is passed over:\n" + server.output());
      assertFalse(Files.exists(firstSegment));
      try (PartitaClient client = Clients.connect(server, "ddl-snapshot-after")) {
        assertEquals(before, contents(client), "the state after recovery is the state before kill -9");
        ok(Clients.adHoc(client, "CREATE TABLE third (id BIGINT NOT NULL PRIMARY KEY)"));
        ok(Clients.adHoc(client, "INSERT INTO third VALUES (1)"));
        assertEquals("DONE", save(client));  // its history: every schema change since the starting schema
        ok(Clients.adHoc(client, "INSERT INTO third VALUES (2)"));
        ok(Clients.adHoc(client, "DELETE FROM more WHERE k < 10"));
        before = contents(client);
        before.addAll(Clients.rows(Clients.query(client, "SELECT id FROM third ORDER BY id")));
      }
      server.kill();
    }
    try (ServerProcess server = start()) {
      assertTrue(server.output().contains("recovery: loading snapshot"), server.output());
      assertFalse(server.output().contains("not using it"), server.output());
      try (PartitaClient client = Clients.connect(server, "ddl-snapshot-again")) {
        final List<List<Object>> after = contents(client);
        after.addAll(Clients.rows(Clients.query(client, "SELECT id FROM third ORDER BY id")));
        assertEquals(before, after, "a snapshot taken after recovering from one carries the whole history");
      }
      assertEquals(0, server.terminate(60));
    }
  }

  /** Inserts notes {@code first} .. {@code first + count - 1}, pipelined, and waits for every answer. */
  private static void insertNotes(PartitaClient client, long first, int count) {
    final List<CompletableFuture<ClientResponse>> answers = new ArrayList<>();
    for (long id = first; id < first + count; id++) {
      answers.add(client.callAsync("@AdHoc", "INSERT INTO notes VALUES (?, ?, ?)", id, PADDING + id, id % 7));
      if (answers.size() >= 200) {
        answers.forEach(a -> ok(a.join()));
        answers.clear();
      }
    }
    answers.forEach(a -> ok(a.join()));
  }

  private static String save(PartitaClient client) {
    final ClientResponse response = client.callAsync("@SnapshotSave").join();
    ok(response);
    final ResultTable table = response.results().get(0);
    assertTrue(table.advanceRow());
    return table.getString(0);
  }

  /** Every table and view of the test's schema, and the DDL-created procedure's answer. */
  static List<List<Object>> contents(PartitaClient client) {
    final List<List<Object>> out = new ArrayList<>();
    out.addAll(Clients.rows(Clients.query(client, "SELECT id, body, n FROM notes ORDER BY id")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT n, c FROM per_n ORDER BY n")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT n, COUNT(*) FROM notes GROUP BY n ORDER BY n")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT n, c, total FROM late_per_n ORDER BY n")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT n, COUNT(*), SUM(id) FROM notes GROUP BY n ORDER BY n")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT name FROM tags ORDER BY name")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT name, c FROM tag_count ORDER BY name")));
    out.addAll(Clients.rows(client.call("NoteAt", 3L).results().get(0)));
    out.addAll(Clients.rows(Clients.query(client, "SELECT k, v FROM more ORDER BY k")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT k FROM more WHERE v = 'v1' ORDER BY k")));
    return out;
  }
}
