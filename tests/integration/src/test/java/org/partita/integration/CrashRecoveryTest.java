package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.PartitaClient;

/**
 * Kill -9 under Voter load, restart on the same data directory, repeat
 * (docs/durability.md): every vote the client saw accepted is present
 * with its contestant, no vote the client saw refused is, every vote
 * present was sent, and both views equal a recomputation from the votes
 * table. Cycles: {@code -Dpartita.crash.cycles=N} (3 by default; the long
 * run is 20, see docs/durability.md).
 */
class CrashRecoveryTest {
  private static final int CYCLES = Integer.getInteger("partita.crash.cycles", 3);
  private static final long LOAD_MILLIS = Long.getLong("partita.crash.loadMillis", 1500);
  private static final int IN_FLIGHT = 200;
  private static final long AREA = 617;
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";

  @TempDir
  Path data;

  /** phone → contestant of every vote answered as accepted. */
  private final Map<Long, Integer> accepted = new ConcurrentHashMap<>();
  /** Phones whose vote was answered as refused (contestant 7 does not exist). */
  private final Set<Long> refused = ConcurrentHashMap.newKeySet();
  /** phone → contestant of every vote sent. */
  private final Map<Long, Integer> sent = new HashMap<>();

  private ServerProcess start() throws Exception {
    return start(Map.of());
  }

  private ServerProcess start(Map<String, String> environment) throws Exception {
    return ServerProcess.start(List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", "2", "--data-dir", data.toString(), "--log-segment-mb",
        "1"), environment);
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void everyAcknowledgedVoteSurvivesKillNine() throws Exception {
    ServerProcess server = start();
    try {
      try (PartitaClient client = Clients.connect(server, "crash-init")) {
        assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
      }
      for (int cycle = 0; cycle < CYCLES; cycle++) {
        final PartitaClient loading = load(server, cycle);
        server.kill();
        server.close();
        loading.close();
        server = start();
        check(server, "after kill -9 number " + (cycle + 1));
      }
      assertEquals(0, server.terminate(60));
      server.close();
      server = start();
      check(server, "after a clean stop");
      assertTrue(accepted.size() > 100 * CYCLES, "the load must have had votes accepted: " + accepted.size());
    } finally {
      server.close();
    }
  }

  /**
   * The same under a simulated power cut (tests/fault/powercut): after each kill
   * every write not yet fsynced or fdatasynced is undone before the restart,
   * as a machine losing power would. Sync mode promises that nothing
   * answered is lost even then.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyAcknowledgedVoteSurvivesAPowerCutInSyncMode() throws Exception {
    final PowerCut power = new PowerCut(data, Files.createTempFile("partita-powercut-", ".journal"));
    ServerProcess server = start(power.environment());
    try {
      try (PartitaClient client = Clients.connect(server, "power-init")) {
        assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
      }
      final StringBuilder cuts = new StringBuilder();
      for (int cycle = 0; cycle < Math.max(2, CYCLES - 1); cycle++) {
        final PartitaClient loading = load(server, cycle);
        server.kill();
        server.close();
        loading.close();
        cuts.append(power.cut());
        server = start(power.environment());
        check(server, "after power cut number " + (cycle + 1) + " (restored so far:\n" + cuts + ")");
      }
      assertTrue(accepted.size() > 100, "the load must have had votes accepted: " + accepted.size());
    } finally {
      server.close();
    }
  }

  /** Votes as fast as IN_FLIGHT calls in flight allow for LOAD_MILLIS, then returns with calls still in flight. */
  private PartitaClient load(ServerProcess server, int cycle) throws Exception {
    final PartitaClient client = Clients.connect(server, "crash-load");
    final Semaphore slots = new Semaphore(IN_FLIGHT);
    final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LOAD_MILLIS);
    for (long i = 0; System.nanoTime() < end; i++) {
      slots.acquire();
      final long phone = AREA * 10_000_000L + cycle * 1_000_000L + i;
      final int contestant = 1 + (int) (i % 7);
      sent.put(phone, contestant);
      client.callAsync("Vote", phone, contestant, 10L).whenComplete((answer, error) -> {
        slots.release();
        if (answer != null && answer.ok() && answer.firstLong() == 0) {
          accepted.put(phone, contestant);
        } else if (answer != null && answer.ok()) {
          refused.add(phone);
        }
      });
    }
    return client; // open, with calls in flight when the server is killed
  }

  private void check(ServerProcess server, String when) throws Exception {
    try (PartitaClient client = Clients.connect(server, "crash-check")) {
      assertEquals(6, Clients.queryLong(client, "SELECT COUNT(*) FROM contestants"), when);
      final Map<Long, Integer> present = new HashMap<>();
      for (int cycle = 0; cycle < CYCLES; cycle++) {
        // One cycle's phones at a time, so that no answer nears the largest frame however long the run.
        final long first = AREA * 10_000_000L + cycle * 1_000_000L;
        for (List<Object> row : Clients.rows(Clients.query(client, "SELECT phone_number, contestant_number FROM"
            + " votes WHERE phone_number >= ? AND phone_number < ?", first, first + 1_000_000L))) {
          final long phone = ((Number) row.get(0)).longValue();
          final Integer previous = present.put(phone, ((Number) row.get(1)).intValue());
          assertEquals(null, previous, when + ": phone " + phone + " voted twice");
        }
      }
      assertEquals(Clients.queryLong(client, "SELECT COUNT(*) FROM votes"), present.size(),
          when + ": every vote is a phone of some cycle");
      final List<String> problems = new ArrayList<>();
      accepted.forEach((phone, contestant) -> {
        if (!contestant.equals(present.get(phone))) {
          problems.add("accepted vote " + phone + " for " + contestant + " is " + present.get(phone));
        }
      });
      for (long phone : refused) {
        if (present.containsKey(phone)) {
          problems.add("refused vote " + phone + " is present");
        }
      }
      present.forEach((phone, contestant) -> {
        if (!contestant.equals(sent.get(phone))) {
          problems.add("vote " + phone + " for " + contestant + " was never sent so");
        }
      });
      assertEquals(List.of(), problems.subList(0, Math.min(20, problems.size())), when);
      assertEquals(rows(client, "SELECT contestant_number, state, COUNT(*) FROM votes GROUP BY contestant_number,"
              + " state ORDER BY contestant_number, state"),
          rows(client, "SELECT contestant_number, state, num_votes FROM v_votes_by_contestant_number_state"
              + " ORDER BY contestant_number, state"), when);
      for (int cycle = 0; cycle < CYCLES; cycle++) {
        final long first = AREA * 10_000_000L + cycle * 1_000_000L;
        final String range = " WHERE phone_number >= ? AND phone_number < ?";
        assertEquals(rows(client, "SELECT phone_number, COUNT(*) FROM votes" + range + " GROUP BY phone_number"
                + " ORDER BY phone_number", first, first + 1_000_000L),
            rows(client, "SELECT phone_number, num_votes FROM v_votes_by_phone_number" + range
                + " ORDER BY phone_number", first, first + 1_000_000L), when);
      }
      assertEquals(Clients.queryLong(client, "SELECT COUNT(*) FROM votes"),
          Clients.queryLong(client, "SELECT COUNT(*) FROM v_votes_by_phone_number"), when);
    }
  }

  private static List<List<Object>> rows(PartitaClient client, String sql, Object... parameters) {
    return Clients.rows(Clients.query(client, sql, parameters));
  }
}
