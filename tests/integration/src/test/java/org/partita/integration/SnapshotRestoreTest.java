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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;

/**
 * {@code @SnapshotRestore} into running servers (docs/durability.md,
 * "Restoring a snapshot"): a snapshot saved by one server is restored into
 * the empty tables of another with other procedure classes, answered once
 * durable, and survives kill -9 with the writes made after it; a missing path, a directory without a manifest,
 * a flipped byte, another partition count, other tables and a table holding
 * rows are each refused with a clear error and change nothing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotRestoreTest {
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";

  @TempDir
  Path data;

  private ServerProcess voter(String dir, int sites) throws Exception {
    return ServerProcess.start(List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", Integer.toString(sites), "--data-dir",
        data.resolve(dir).toString()));
  }

  /**
   * The Voter tables with other procedure classes (one more procedure, from
   * the tests' classes): restoring into it is how a database changes its
   * procedure classes (docs/durability.md, "Procedure classes").
   */
  private ServerProcess voterWithOtherClasses(String dir) throws Exception {
    final Path forever = Path.of(SnapshotRestoreTest.class.getResource("/forever.sql").toURI());
    final Path testClasses = Path.of(org.partita.integration.procs.VoteThenJoinForever.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    return ServerProcess.start(List.of("--schema", ServerProcess.VOTER_DDL + "," + forever, "--classes",
        ServerProcess.VOTER_CLASSES + "," + testClasses, "--sites", "2", "--data-dir", data.resolve(dir).toString()));
  }

  @Test
  void aRestoredSnapshotIsDurableAndBadInputChangesNothing() throws Exception {
    final Path export = data.resolve("export");
    final List<List<Object>> saved;
    try (ServerProcess source = voter("source", 2);
        PartitaClient client = Clients.connect(source, "restore-source")) {
      assertEquals(6, client.call("Initialize", 6, NAMES).firstLong());
      vote(client, 6170000000L, 1_500);
      saved = contents(client);
      assertEquals("DONE", figures(client.callAsync("@SnapshotSave", export.toString()).join()).getString(0));
    }
    final Path damaged = copy(export, data.resolve("damaged"));
    final Path file = damaged.resolve("partition-1.snap");
    final byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 2] ^= 0x04;
    Files.write(file, bytes);
    final Path noManifest = copy(export, data.resolve("no-manifest"));
    Files.delete(noManifest.resolve("MANIFEST"));

    List<List<Object>> expected;
    try (ServerProcess target = voterWithOtherClasses("target")) {
      try (PartitaClient client = Clients.connect(target, "restore-target")) {
        refused(client, data.resolve("missing").toString(), "there is no snapshot directory at");
        refused(client, noManifest.toString(), "is not a complete snapshot: it has no MANIFEST");
        refused(client, damaged.toString(), "is damaged: " + file + ": its checksum does not match");
        ok(Clients.adHoc(client, "INSERT INTO contestants VALUES (?, ?)", 99, "Occupying Row"));
        refused(client, export.toString(), "loads only into empty tables, and table CONTESTANTS holds 1 row(s)");
        assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM contestants"),
            "a refused restore changes nothing");
        assertEquals(0, Clients.queryLong(client, "SELECT COUNT(*) FROM votes"));
        ok(Clients.adHoc(client, "DELETE FROM contestants"));

        final ResultTable restored = figures(client.callAsync("@SnapshotRestore", export.toString()).join());
        assertEquals("DONE", restored.getString(0));
        assertTrue(restored.getString(1).startsWith(data.resolve("target").resolve("snapshots").toString()),
            "the restored state is a snapshot in the data directory: " + restored.getString(1));
        assertEquals(saved, contents(client), "the restore loaded every row of the snapshot");
        checkViews(client);
        vote(client, 6180000000L, 300);  // writes after the restore, acknowledged in sync mode
        expected = contents(client);
      }
      target.kill();
    }
    assertTrue(Files.readString(data.resolve("target").resolve("commandlog").resolve("TRUNCATED"))
        .contains("snapshot snapshot-"), "recovery must start from the restored state");
    assertFalse(Files.readString(data.resolve("target").resolve("classes").resolve("current")).equals(
        Files.readString(data.resolve("source").resolve("classes").resolve("current"))),
        "the data moved to a database with other procedure classes");
    try (ServerProcess target = voterWithOtherClasses("target")) {
      assertTrue(target.output().contains("recovery: loading snapshot"), target.output());
      try (PartitaClient client = Clients.connect(target, "restore-recovered")) {
        assertEquals(expected, contents(client), "the restore and the writes after it survive kill -9");
        checkViews(client);
        for (String table : List.of("votes", "contestants", "area_code_state")) {
          ok(Clients.adHoc(client, "DELETE FROM " + table));
        }
        assertEquals("DONE", figures(client.callAsync("@SnapshotRestore", export.toString()).join()).getString(0));
        assertEquals(saved, contents(client), "tables emptied after recovery from a snapshot take a restore again");
        expected = saved;
        ok(Clients.adHoc(client, "CREATE TABLE extra (x BIGINT)"));
        refused(client, export.toString(), "was taken with other tables than this server's: this server has EXTRA");
        assertEquals(expected, contents(client));
      }
    }
    try (ServerProcess other = ServerProcess.start(List.of("--sites", "1", "--data-dir",
        data.resolve("other").toString()));
        PartitaClient client = Clients.connect(other, "restore-other")) {
      refused(client, export.toString(), "holds 2 partition(s) and this server 1");
    }
  }

  /**
   * The server halts (as kill -9 would) after the restore loaded its rows,
   * before the snapshot of them is complete: the restore was never answered,
   * and recovery comes back to the state before it; the restore then works.
   */
  @Test
  void aCrashBeforeTheRestoreIsDurableLeavesTheStateBeforeIt() throws Exception {
    final Path export = data.resolve("export");
    final List<List<Object>> saved;
    try (ServerProcess source = voter("source", 2);
        PartitaClient client = Clients.connect(source, "crash-source")) {
      assertEquals(6, client.call("Initialize", 6, NAMES).firstLong());
      vote(client, 6170000000L, 500);
      saved = contents(client);
      assertEquals("DONE", figures(client.callAsync("@SnapshotSave", export.toString()).join()).getString(0));
    }
    final List<String> args = List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", "2", "--data-dir", data.resolve("target").toString());
    try (ServerProcess target = ServerProcess.start(args, java.util.Map.of("PARTITA_CRASH_AT",
        "snapshot.manifest-written"))) {
      try (PartitaClient client = Clients.connect(target, org.partita.client.ClientConfig.builder()
          .clientName("crash-target").callTimeout(java.time.Duration.ofSeconds(30)).reconnect(false).build())) {
        ok(Clients.adHoc(client, "INSERT INTO contestants VALUES (?, ?)", 99, "Occupying Row"));
        ok(Clients.adHoc(client, "DELETE FROM contestants"));
        client.callAsync("@SnapshotRestore", export.toString());
        assertEquals(99, target.awaitExit(60), target.output());
      }
    }
    try (ServerProcess target = ServerProcess.start(args);
        PartitaClient client = Clients.connect(target, "crash-recovered")) {
      assertEquals(List.of(), contents(client), "the restore was never answered and left nothing");
      assertEquals("DONE", figures(client.callAsync("@SnapshotRestore", export.toString()).join()).getString(0));
      assertEquals(saved, contents(client));
    }
  }

  private static void refused(PartitaClient client, String path, String why) {
    final ClientResponse response = client.callAsync("@SnapshotRestore", path).join();
    assertFalse(response.ok(), response.toString());
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, response.errorCode(), response.toString());
    final String message = response.message().toLowerCase(java.util.Locale.ROOT);
    assertTrue(message.contains(why.toLowerCase(java.util.Locale.ROOT)) && message.contains("nothing was restored"),
        response.message());
  }

  private static void ok(ClientResponse response) {
    assertTrue(response.ok(), response.toString());
  }

  private static ResultTable figures(ClientResponse response) {
    ok(response);
    final ResultTable table = response.results().get(0);
    assertTrue(table.advanceRow());
    return table;
  }

  /** Votes from phones {@code first} on, every answer awaited; each must be accepted. */
  private static void vote(PartitaClient client, long first, int count) {
    final List<CompletableFuture<ClientResponse>> answers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      answers.add(client.callAsync("Vote", first + i, 1 + i % 6, 1_000L));
    }
    for (CompletableFuture<ClientResponse> answer : answers) {
      final ClientResponse response = answer.join();
      ok(response);
      assertEquals(0, response.firstLong(), "accepted");
    }
  }

  private static Path copy(Path from, Path to) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
    return to;
  }

  private static List<List<Object>> contents(PartitaClient client) {
    final List<List<Object>> rows = new ArrayList<>(Clients.rows(Clients.query(client,
        "SELECT phone_number, state, contestant_number FROM votes ORDER BY phone_number")));
    rows.addAll(Clients.rows(Clients.query(client,
        "SELECT contestant_number, contestant_name FROM contestants ORDER BY contestant_number")));
    rows.addAll(Clients.rows(Clients.query(client, "SELECT area_code, state FROM area_code_state ORDER BY area_code")));
    return rows;
  }

  private static void checkViews(PartitaClient client) {
    assertEquals(Clients.rows(Clients.query(client, "SELECT contestant_number, state, COUNT(*) FROM votes GROUP BY"
            + " contestant_number, state ORDER BY contestant_number, state")),
        Clients.rows(Clients.query(client, "SELECT contestant_number, state, num_votes FROM"
            + " v_votes_by_contestant_number_state ORDER BY contestant_number, state")));
  }
}
