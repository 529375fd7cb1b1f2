package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * The command log through real server processes (docs/durability.md):
 * schema changes, single- and multi-partition writes and a procedure
 * created by DDL survive kill -9 and replay against the catalog each ran
 * with; a damaged log refuses to start naming file and offset; off is said
 * at start and refuses a directory that holds a log.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DurabilityTest {
  @TempDir
  Path data;

  private ServerProcess startEmpty(String... extra) throws Exception {
    final List<String> args = new ArrayList<>(List.of("--sites", "2", "--data-dir", data.toString()));
    args.addAll(List.of(extra));
    return ServerProcess.start(args);
  }

  private static void ok(ClientResponse response) {
    assertTrue(response.ok(), response.toString());
  }

  /**
   * Writes stopped by their time limit (a single-partition procedure that
   * votes then joins forever, a multi-partition insert of millions of rows)
   * are rolled back, recorded as aborted and not replayed: without the
   * markers the replay, which runs under no limit, would never finish the
   * first and would insert the rows of the second.
   */
  @Test
  void writesStoppedByTheirTimeLimitAreNotReplayed() throws Exception {
    final java.net.URL forever = DurabilityTest.class.getResource("/forever.sql");
    final Path testClasses = Path.of(org.partita.integration.procs.VoteThenJoinForever.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    final List<String> voter = List.of("--schema", ServerProcess.VOTER_DDL + "," + Path.of(forever.toURI()),
        "--classes", ServerProcess.VOTER_CLASSES + "," + testClasses, "--query-timeout", "300ms");
    final long phone = 6175550000L;
    try (ServerProcess server = startEmpty(voter.toArray(new String[0]))) {
      try (PartitaClient client = Clients.connect(server, "timeouts")) {
        ok(client.callAsync("Initialize", 6, "A,B,C,D,E,F").join());
        ok(Clients.adHoc(client, "CREATE TABLE w (k BIGINT NOT NULL)"));
        final ClientResponse partitioned = client.callAsync("VoteThenJoinForever", phone).join();
        assertEquals(org.partita.proto.ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, partitioned.errorCode(),
            partitioned.toString());
        final ClientResponse replicated = Clients.adHoc(client, "INSERT INTO w SELECT a.area_code * 1000000"
            + " + b.area_code * 1000 + c.area_code FROM area_code_state a, area_code_state b, area_code_state c");
        assertEquals(org.partita.proto.ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, replicated.errorCode(),
            replicated.toString());
        ok(Clients.adHoc(client, "INSERT INTO w VALUES (1)"));
        ok(client.callAsync("Vote", phone + 1, 1, 10L).join());
      }
      server.kill();
    }
    try (ServerProcess server = startEmpty(voter.toArray(new String[0]))) {
      try (PartitaClient client = Clients.connect(server, "after")) {
        assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM w"), "only the insert that committed");
        assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM votes"), "only the vote that committed");
      }
      assertTrue(server.output().contains("skipped 5 record(s) of 2 transaction(s) rolled back"), server.output());
    }
  }

  /**
   * The data directory keeps the procedure classes its log was written
   * with: a restart without --classes replays with them, and one with other
   * classes is refused, naming both.
   */
  @Test
  void theLogReplaysWithTheProcedureClassesItWasWrittenWith() throws Exception {
    final String voterDdl = ServerProcess.VOTER_DDL.toString();
    try (ServerProcess server = startEmpty("--schema", voterDdl, "--classes", ServerProcess.VOTER_CLASSES.toString())) {
      try (PartitaClient client = Clients.connect(server, "classes")) {
        ok(client.callAsync("Initialize", 6, "A,B,C,D,E,F").join());
        assertEquals(0, client.callAsync("Vote", 6175550001L, 2, 10L).join().firstLong());
      }
      server.kill();
    }
    final Path testClasses = Path.of(org.partita.integration.procs.VoteThenJoinForever.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    try (ServerProcess refused = ServerProcess.spawn(List.of("--sites", "2", "--data-dir", data.toString(), "--schema",
        voterDdl, "--classes", ServerProcess.VOTER_CLASSES + "," + testClasses))) {
      assertEquals(1, refused.awaitExit(120), refused.output());
      assertTrue(refused.output().contains("differ from those the command log in " + data + " was written with"),
          refused.output());
    }
    try (ServerProcess server = startEmpty("--schema", voterDdl)) {
      try (PartitaClient client = Clients.connect(server, "kept")) {
        assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM votes"));
        assertEquals(0, client.callAsync("Vote", 6175550002L, 3, 10L).join().firstLong(), "Vote runs from the copy");
      }
      assertTrue(server.output().contains("the classes the command log was written with"), server.output());
    }
  }

  @Test
  void schemaChangesAndWritesReplayAgainstTheCatalogTheyRanWith() throws Exception {
    final List<List<Object>> before;
    try (ServerProcess server = startEmpty()) {
      try (PartitaClient client = Clients.connect(server, "ddl")) {
        ok(Clients.adHoc(client, "CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY, body VARCHAR(20))"));
        ok(Clients.adHoc(client, "PARTITION TABLE notes ON COLUMN id"));
        for (long id = 1; id <= 40; id++) {
          ok(Clients.adHoc(client, "INSERT INTO notes VALUES (?, ?)", id, "note " + id));
        }
        ok(Clients.adHoc(client, "UPDATE notes SET body = 'edited' WHERE id > 30"));
        ok(Clients.adHoc(client, "CREATE VIEW per_body (body, n) AS SELECT body, COUNT(*) FROM notes GROUP BY body"));
        ok(Clients.adHoc(client, "CREATE PROCEDURE NoteAt PARTITION ON TABLE notes COLUMN id AS"
            + " SELECT body FROM notes WHERE id = ?"));
        ok(Clients.adHoc(client, "CREATE TABLE tags (name VARCHAR(10) NOT NULL)"));
        ok(Clients.adHoc(client, "INSERT INTO tags VALUES ('replicated')"));
        ok(Clients.adHoc(client, "DELETE FROM notes WHERE id = 7"));
        ok(Clients.adHoc(client, "CREATE TABLE stamps (id BIGINT NOT NULL, at TIMESTAMP)"));
        ok(Clients.adHoc(client, "PARTITION TABLE stamps ON COLUMN id"));
        ok(Clients.adHoc(client, "INSERT INTO stamps VALUES (1, NOW())"));
        before = snapshot(client);
        assertEquals(39L, before.get(0).get(0));
      }
      server.kill();
    }
    try (ServerProcess server = startEmpty()) {
      try (PartitaClient client = Clients.connect(server, "after")) {
        assertEquals(before, snapshot(client), "the state after recovery is the state before the crash");
        assertEquals(List.of(List.of("edited")), Clients.rows(client.call("NoteAt", 35L).results().get(0)));
        ok(Clients.adHoc(client, "INSERT INTO notes VALUES (100, 'after')"));
      }
      assertTrue(server.output().contains("recovery: replayed"), server.output());
      assertEquals(0, server.terminate(60));
    }
    try (ServerProcess server = startEmpty()) {
      try (PartitaClient client = Clients.connect(server, "again")) {
        assertEquals(40, Clients.queryLong(client, "SELECT COUNT(*) FROM notes"), "a second epoch replays too");
      }
    }
  }

  private static List<List<Object>> snapshot(PartitaClient client) {
    final List<List<Object>> out = new ArrayList<>();
    out.add(List.of(Clients.queryLong(client, "SELECT COUNT(*) FROM notes")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT id, body FROM notes ORDER BY id")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT body, n FROM per_body ORDER BY body")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT name FROM tags")));
    out.addAll(Clients.rows(Clients.query(client, "SELECT id, at FROM stamps")));
    return out;
  }

  @Test
  void aFlippedByteInTheMiddleOfTheLogRefusesToStartNamingFileAndOffset() throws Exception {
    try (ServerProcess server = startEmpty()) {
      try (PartitaClient client = Clients.connect(server, "fill")) {
        ok(Clients.adHoc(client, "CREATE TABLE t (id BIGINT NOT NULL)"));
        ok(Clients.adHoc(client, "PARTITION TABLE t ON COLUMN id"));
        for (long id = 0; id < 20; id++) {
          ok(Clients.adHoc(client, "INSERT INTO t VALUES (?)", id));
        }
      }
      assertEquals(0, server.terminate(60));
    }
    final Path segment = data.resolve("commandlog").resolve("segment-0000000001.log");
    final long offset = 64;
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      final ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, offset + 20);
      one.put(0, (byte) (one.get(0) ^ 0x40)).flip();
      ch.write(one, offset + 20);
    }
    try (ServerProcess refused = ServerProcess.spawn(List.of("--sites", "2", "--data-dir", data.toString()))) {
      assertEquals(1, refused.awaitExit(90), refused.output());
      assertTrue(refused.output().contains(segment + " at offset " + offset), refused.output());
      assertTrue(refused.output().contains("does not start on a damaged log"), refused.output());
    }
    assertTrue(Files.exists(segment), "a refused start leaves the log as it was");
  }

  @Test
  void offIsSaidAtStartAndRefusesADirectoryHoldingALog() throws Exception {
    try (ServerProcess server = ServerProcess.start(List.of("--sites", "1"))) {
      assertTrue(server.output().contains("COMMAND LOG OFF"), server.output());
      assertTrue(server.output().contains("command log off"), server.output());
      try (PartitaClient client = Clients.connect(server, "off")) {
        assertEquals(List.of(List.of("OFF", 0L, 0L, 0L, 0L, 0L, 0L, 0.0, 0L, 0L, 0L)),
            Clients.rows(client.call("@Statistics", "COMMANDLOG").results().get(0)));
      }
    }
    try (ServerProcess server = startEmpty()) {
      assertTrue(server.output().contains("command log sync"), server.output());
      try (PartitaClient client = Clients.connect(server, "one")) {
        ok(Clients.adHoc(client, "CREATE TABLE t (id BIGINT NOT NULL)"));
        ok(Clients.adHoc(client, "INSERT INTO t VALUES (1)"));
        // Sync: both answers came after their records were synced, so the log has counted them.
        final List<Object> log = Clients.rows(client.call("@Statistics", "COMMANDLOG").results().get(0)).get(0);
        assertEquals("SYNC", log.get(0));
        assertTrue((Long) log.get(1) >= 2, "records: " + log);
        assertTrue((Long) log.get(2) > 0 && (Long) log.get(3) >= 1, "bytes and syncs: " + log);
        assertTrue((Double) log.get(7) > 0 && (Long) log.get(8) > 0 && (Long) log.get(9) >= (Long) log.get(8),
            "mean batch and sync percentiles: " + log);
      }
    }
    try (ServerProcess refused = ServerProcess.spawn(List.of("--sites", "2", "--data-dir", data.toString(),
        "--command-log", "off"))) {
      assertEquals(1, refused.awaitExit(90), refused.output());
      assertTrue(refused.output().contains("holds a command log"), refused.output());
    }
  }
}
