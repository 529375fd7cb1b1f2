package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Snapshots against real servers (docs/durability.md, "Snapshots"): a
 * snapshot taken under Voter load, then kill -9, recovers the same table
 * contents (loaded from the snapshot, only the log after its cut
 * replayed) with the views equal to a recomputation; a crash at each step
 * of writing a snapshot is harmless; a flipped byte in the newest
 * snapshot's chunks makes recovery fall back to the one before it.
 */
class SnapshotRecoveryTest {
  private static final String CRASH_AT = "PARTITA_CRASH_AT";
  private static final int CRASH_EXIT = 99;
  private static final int IN_FLIGHT = 200;
  private static final long AREA = 617;
  /** How long one server of the truncation test is given to complete two automatic snapshots. */
  private static final long ROUNDS_SECONDS = 90;
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";
  private static final Pattern SKIPPED = Pattern.compile("multi-partition; (\\d+) record\\(s\\) skipped as in the"
      + " snapshot");

  @TempDir
  Path data;

  private long nextPhone = AREA * 10_000_000L;
  /** Phones whose vote was answered as accepted. */
  private final Set<Long> accepted = ConcurrentHashMap.newKeySet();

  private ServerProcess start(Map<String, String> environment, String... extra) throws Exception {
    final List<String> args = new ArrayList<>(List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", "2", "--data-dir", data.toString(), "--log-segment-mb",
        "1"));
    args.addAll(List.of(extra));
    return ServerProcess.start(args, environment);
  }

  /**
   * Automatic snapshots every MB of log delete the segments they hold (the
   * first segment goes); a crash right after the truncation mark and one
   * between two deletions are harmless; recovery after kill -9 loads the
   * snapshot, begins the log at the mark's segment and loses nothing.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void automaticSnapshotsTruncateTheLogAndACrashWhileTruncatingIsHarmless() throws Exception {
    boolean initialized = false;
    for (String point : List.of("truncation.marked", "truncation.segment-deleted", "")) {
      try (ServerProcess server = start(point.isEmpty() ? Map.of() : Map.of(CRASH_AT, point), "--snapshot-log-size",
          "1")) {
        try (PartitaClient client = crashable(server, "truncation")) {
          if (!initialized) {
            assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
            initialized = true;
          }
          long completed = 0;
          // Bounded by time, not rounds: on a loaded machine a snapshot takes longer while the votes keep coming.
          final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ROUNDS_SECONDS);
          while (System.nanoTime() < deadline && server.isAlive() && completed < 2) {
            vote(client, 2_500);
            try {
              completed = single(client.callAsync("@SnapshotStatus").join()).getLong(7);
            } catch (RuntimeException e) {
              if (point.isEmpty() || server.awaitExit(60) != CRASH_EXIT) {
                throw e;
              }
            }
          }
          if (point.isEmpty()) {
            assertTrue(completed >= 2, "automatic snapshots: " + completed);
          }
        }
        if (point.isEmpty()) {
          server.kill();
        } else {
          assertEquals(CRASH_EXIT, server.awaitExit(60), point + ":\n" + server.output());
          assertTrue(server.output().contains("crash point " + point + " reached"), server.output());
        }
      }
      final Path log = data.resolve("commandlog");
      assertTrue(Files.exists(log.resolve("TRUNCATED")), "the truncation mark: " + point);
      try (ServerProcess server = start(Map.of());
          PartitaClient client = Clients.connect(server, "truncation-check")) {
        assertFalse(Files.exists(log.resolve("segment-0000000001.log")), "the first segment is deleted");
        assertTrue(server.output().contains("recovery: loading snapshot"), server.output());
        final Set<Long> present = new HashSet<>();
        for (List<Object> row : Clients.rows(Clients.query(client, "SELECT phone_number FROM votes"))) {
          present.add(((Number) row.get(0)).longValue());
        }
        assertTrue(present.containsAll(accepted), "every vote answered as accepted before "
            + (point.isEmpty() ? "kill -9" : point) + " is present");
        checkViews(client);
        assertEquals(0, server.terminate(60));
      }
    }
    for (Path snapshot : snapshots()) {  // now no snapshot holds the deleted segments
      final Path file = snapshot.resolve("partition-1.snap");
      final byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length - 2] ^= 0x01;
      Files.write(file, bytes);
    }
    final List<String> args = new ArrayList<>(List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", "2", "--data-dir", data.toString()));
    try (ServerProcess refused = ServerProcess.spawn(args)) {
      final int exit = refused.awaitExit(120);
      assertTrue(exit != 0 && exit != -1, "recovery refuses to start: " + exit + "\n" + refused.output());
      assertTrue(refused.output().contains("begins at segment") && refused.output().contains("partition-1.snap: its"
          + " checksum does not match"), refused.output());
    }
  }

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aSnapshotUnderLoadThenKillNineRecoversTheSameContents() throws Exception {
    ServerProcess server = start(Map.of());
    try {
      final List<List<Object>> before;
      try (PartitaClient client = Clients.connect(server, "snapshot-load")) {
        assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
        vote(client, 8_000);
        final CompletableFuture<Void> load = CompletableFuture.runAsync(() -> vote(client, 8_000));
        final ResultTable saved = save(client);
        load.join();
        assertEquals("DONE", saved.getString(0), "state");
        assertTrue(saved.getLong(2) > 0, "bytes written");
        vote(client, 2_000);
        final ResultTable status = single(client.callAsync("@SnapshotStatus").join());
        assertEquals("DONE", status.getString(0));
        assertEquals(1, status.getLong(7), "one snapshot completed");
        assertTrue(status.getLong(8) > 0 && status.getLong(9) > 0 && status.getLong(9) <= status.getLong(8) + 1_000,
            "the longest pause of a partition for one chunk and its CPU time are measured");
        before = contents(client);
      }
      server.kill();
      server.close();
      server = start(Map.of());
      assertTrue(server.output().contains("recovery: loading snapshot"), server.output());
      assertTrue(skipped(server.output()) > 0, "the log before the cut is not replayed:\n" + server.output());
      try (PartitaClient client = Clients.connect(server, "snapshot-check")) {
        assertEquals(before, contents(client), "the same rows as before the kill");
        checkViews(client);
      }
    } finally {
      server.close();
    }
  }

  /**
   * The server halts (as kill -9 would) at each step of writing a
   * snapshot; the restart removes a snapshot left without a manifest,
   * loses nothing, and a later snapshot works.
   */
  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void aCrashAtEachStepOfASnapshotIsHarmless() throws Exception {
    List<List<Object>> expected = List.of();
    final List<String> points = List.of("snapshot.chunk-written:2", "snapshot.manifest-written",
        "snapshot.manifest-renamed");
    for (int i = 0; i < points.size(); i++) {
      final String point = points.get(i);
      try (ServerProcess server = start(Map.of(CRASH_AT, point))) {
        try (PartitaClient client = crashable(server, "snapshot-crash")) {
          if (i == 0) {
            assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
          }
          vote(client, 1_500);
          expected = contents(client);
          client.callAsync("@SnapshotSave");
          assertEquals(CRASH_EXIT, server.awaitExit(60), point + ":\n" + server.output());
        }
        final String name = point.contains(":") ? point.substring(0, point.indexOf(':')) : point;
        assertTrue(server.output().contains("crash point " + name + " reached"), server.output());
      }
      try (ServerProcess server = start(Map.of())) {
        if (!point.equals("snapshot.manifest-renamed")) {
          assertTrue(server.output().contains("has no manifest"), point + ": the half-written snapshot is removed:\n"
              + server.output());
        }
        try (PartitaClient client = Clients.connect(server, "snapshot-crash-check")) {
          assertEquals(expected, contents(client), "after a crash at " + point);
          checkViews(client);
        }
        assertEquals(0, server.terminate(60));
      }
    }
    try (ServerProcess server = start(Map.of());
        PartitaClient client = Clients.connect(server, "snapshot-after-crashes")) {
      assertTrue(server.output().contains("recovery: loading snapshot"), "the snapshot whose manifest was renamed"
          + " before the crash is complete and used:\n" + server.output());
      assertEquals("DONE", save(client).getString(0));
      assertEquals(expected, contents(client));
    }
  }

  /** The newest snapshot with a flipped byte is passed over for the one before it; nothing is lost. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aFlippedByteInTheNewestSnapshotFallsBackToThePreviousOne() throws Exception {
    final List<List<Object>> before;
    try (ServerProcess server = start(Map.of())) {
      try (PartitaClient client = Clients.connect(server, "snapshot-flip")) {
        assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
        vote(client, 3_000);
        assertEquals("DONE", save(client).getString(0));
        vote(client, 3_000);
        assertEquals("DONE", save(client).getString(0));
        vote(client, 1_000);
        before = contents(client);
      }
      assertEquals(0, server.terminate(60));
    }
    final List<Path> snapshots = snapshots();
    assertEquals(2, snapshots.size(), "both snapshots are kept: " + snapshots);
    final Path newest = snapshots.get(snapshots.size() - 1).resolve("partition-0.snap");
    final byte[] bytes = Files.readAllBytes(newest);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(newest, bytes);
    try (ServerProcess server = start(Map.of());
        PartitaClient client = Clients.connect(server, "snapshot-flip-check")) {
      assertTrue(server.output().contains("its checksum does not match"), server.output());
      assertTrue(server.output().contains("recovery: loading snapshot " + snapshots.get(0)), server.output());
      assertEquals(before, contents(client));
      checkViews(client);
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void snapshotProceduresRefuseWhatTheyCannotDo() throws Exception {
    try (ServerProcess server = ServerProcess.voter(1);
        PartitaClient client = Clients.connect(server, "snapshot-refusals")) {
      final ClientResponse noLog = client.callAsync("@SnapshotSave").join();
      assertFalse(noLog.ok());
      assertTrue(noLog.message().contains("started without a command log"), noLog.message());
      final ClientResponse restore = client.callAsync("@SnapshotRestore", "/tmp/x").join();
      assertFalse(restore.ok());
      assertTrue(restore.message().contains("started without a command log"), restore.message());
      assertEquals("NONE", single(client.callAsync("@SnapshotStatus").join()).getString(0));
      assertEquals("NONE", single(client.callAsync("@Statistics", "SNAPSHOT").join()).getString(0));
    }
    try (ServerProcess server = start(Map.of());
        PartitaClient client = Clients.connect(server, "snapshot-refusals-2")) {
      final Path taken = data.resolve("taken");
      assertEquals("DONE", single(client.callAsync("@SnapshotSave", taken.toString()).join()).getString(0));
      assertTrue(Files.exists(taken.resolve("MANIFEST")));
      final ClientResponse again = client.callAsync("@SnapshotSave", taken.toString()).join();
      assertFalse(again.ok());
      assertTrue(again.message().contains("cannot create the snapshot directory"), again.message());
    }
  }

  /** A client that fails its calls at once when the server dies (no reconnection). */
  private static PartitaClient crashable(ServerProcess server, String name) {
    return Clients.connect(server, ClientConfig.builder().clientName(name).callTimeout(Duration.ofSeconds(30))
        .reconnect(false).build());
  }

  private static ResultTable save(PartitaClient client) {
    return single(client.callAsync("@SnapshotSave").join());
  }

  private static ResultTable single(ClientResponse response) {
    assertTrue(response.ok(), response.toString());
    final ResultTable table = response.results().get(0);
    assertTrue(table.advanceRow());
    return table;
  }

  /** Sends {@code count} votes, at most IN_FLIGHT at a time, and waits for every answer. */
  private void vote(PartitaClient client, int count) {
    final Semaphore slots = new Semaphore(IN_FLIGHT);
    final long first;
    synchronized (this) {
      first = nextPhone;
      nextPhone += count;
    }
    for (int i = 0; i < count; i++) {
      slots.acquireUninterruptibly();
      final long phone = first + i;
      client.callAsync("Vote", phone, 1 + i % 6, 1_000L).whenComplete((answer, error) -> {
        if (answer != null && answer.ok() && answer.firstLong() == 0) {
          accepted.add(phone);
        }
        slots.release();
      });
    }
    slots.acquireUninterruptibly(IN_FLIGHT);
  }

  private static List<List<Object>> contents(PartitaClient client) {
    final List<List<Object>> rows = new ArrayList<>(Clients.rows(Clients.query(client,
        "SELECT phone_number, state, contestant_number FROM votes ORDER BY phone_number")));
    rows.addAll(Clients.rows(Clients.query(client,
        "SELECT contestant_number, contestant_name FROM contestants ORDER BY contestant_number")));
    return rows;
  }

  private static void checkViews(PartitaClient client) {
    assertEquals(Clients.rows(Clients.query(client, "SELECT contestant_number, state, COUNT(*) FROM votes GROUP BY"
            + " contestant_number, state ORDER BY contestant_number, state")),
        Clients.rows(Clients.query(client, "SELECT contestant_number, state, num_votes FROM"
            + " v_votes_by_contestant_number_state ORDER BY contestant_number, state")));
    assertEquals(Clients.rows(Clients.query(client, "SELECT phone_number, COUNT(*) FROM votes GROUP BY phone_number"
            + " ORDER BY phone_number")),
        Clients.rows(Clients.query(client, "SELECT phone_number, num_votes FROM v_votes_by_phone_number"
            + " ORDER BY phone_number")));
  }

  private static long skipped(String output) {
    final Matcher m = SKIPPED.matcher(output);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** The complete snapshots in the data directory, oldest first. */
  private List<Path> snapshots() throws IOException {
    try (Stream<Path> entries = Files.list(data.resolve("snapshots"))) {
      return entries.filter(p -> Files.exists(p.resolve("MANIFEST"))).sorted().toList();
    }
  }
}
