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
  /** phone → System.nanoTime() when its vote's acceptance arrived. */
  private final Map<Long, Long> acceptedAt = new ConcurrentHashMap<>();
  /** Accepted votes an async-mode power cut took back (within the bound); they must stay absent. */
  private final Set<Long> lost = ConcurrentHashMap.newKeySet();
  /** Phones whose vote was answered as refused (contestant 7 does not exist). */
  private final Set<Long> refused = ConcurrentHashMap.newKeySet();
  /** phone → contestant of every vote sent. */
  private final Map<Long, Integer> sent = new HashMap<>();

  private ServerProcess start() throws Exception {
    return start(Map.of());
  }

  private ServerProcess start(Map<String, String> environment, String... extraArgs) throws Exception {
    return ServerProcess.start(arguments(extraArgs), environment);
  }

  private List<String> arguments(String... extraArgs) {
    final List<String> args = new ArrayList<>(List.of("--schema", ServerProcess.VOTER_DDL.toString(), "--classes",
        ServerProcess.VOTER_CLASSES.toString(), "--sites", "2", "--data-dir", data.toString(), "--log-segment-mb",
        "1"));
    args.addAll(List.of(extraArgs));
    return args;
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void everyAcknowledgedVoteSurvivesKillNine() throws Exception {
    ServerProcess server = start();
    try {
      initialize(server);
      for (int cycle = 0; cycle < CYCLES; cycle++) {
        killUnderLoad(server, cycle);
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
    cutPowerUnderLoad("sync mode", null);
  }

  /**
   * Async mode under simulated power cuts: an accepted vote may be lost
   * only if it was answered within the documented bound before the cut
   * (docs/durability.md: interval + 2 × max-lag), and a lost vote never
   * comes back. The client's clock errs on the safe side: an answer
   * arrives after the server sent it, and the kill is timed before it is
   * sent.
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void acceptedVotesLostToAPowerCutInAsyncModeAreWithinTheBound() throws Exception {
    final long intervalMillis = 50;
    final long maxLagMillis = 200;
    cutPowerUnderLoad("async mode", TimeUnit.MILLISECONDS.toNanos(intervalMillis + 2 * maxLagMillis),
        "--command-log", "async", "--log-interval", Long.toString(intervalMillis), "--log-max-lag",
        Long.toString(maxLagMillis));
  }

  /**
   * Loads, kills, cuts power and recovers, at least twice; {@code boundNanos}
   * is how long before the kill an accepted vote may have been answered
   * and still be lost (null: none may be lost).
   */
  private void cutPowerUnderLoad(String mode, Long boundNanos, String... args) throws Exception {
    final PowerCut power = new PowerCut(data, Files.createTempFile("partita-powercut-", ".journal"));
    ServerProcess server = start(power.environment(), args);
    try {
      initialize(server);
      final StringBuilder cuts = new StringBuilder();
      for (int cycle = 0; cycle < Math.max(2, CYCLES - 1); cycle++) {
        final long killedAt = killUnderLoad(server, cycle);
        cuts.append(power.cut());
        server = start(power.environment(), args);
        final int lostBefore = lost.size();
        check(server, "after power cut number " + (cycle + 1) + " in " + mode + " (restored so far:\n" + cuts + ")",
            boundNanos == null ? null : killedAt - boundNanos);
        if (boundNanos != null) {
          System.out.println("power cut " + (cycle + 1) + " in " + mode + ": " + (lost.size() - lostBefore)
              + " accepted vote(s) lost, all answered within " + TimeUnit.NANOSECONDS.toMillis(boundNanos)
              + " ms of the cut");
        }
      }
      assertTrue(accepted.size() > 100, "the load must have had votes accepted: " + accepted.size());
    } finally {
      server.close();
    }
  }

  /**
   * Crashes while recovering (halfway through the replay, after the
   * replay, right after the new epoch's first segment was renamed into the
   * log), then recovers for real: nothing accepted is lost and the log
   * goes on working. Uses the server's crash points (docs/durability.md).
   */
  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aCrashDuringRecoveryIsHarmless() throws Exception {
    ServerProcess server = start();
    try {
      initialize(server);
      killUnderLoad(server, 0);
      assertTrue(accepted.size() > 100, "the load must have had votes accepted: " + accepted.size());
      for (String point : List.of("recovery.replayed:" + accepted.size() / 2, "recovery.replay-done")) {
        crashAt(point);
      }
      server = start(Map.of(CRASH_AT, "log.segment-renamed"));
      try (PartitaClient client = Clients.connect(server, "recovery-crash-first-write")) {
        client.callAsync("Vote", AREA * 10_000_000L + 999_999L, 1, 10L); // its segment's rename crashes the host
        assertEquals(CRASH_EXIT, server.awaitExit(60), server.output());
      }
      assertTrue(server.output().contains("crash point log.segment-renamed reached"), server.output());
      server.close();
      server = start();
      check(server, "after crashes during recovery");
      killUnderLoad(server, 1);
      server = start();
      check(server, "after a kill -9 following the crashed recoveries");
    } finally {
      server.close();
    }
  }

  private static final String CRASH_AT = "PARTITA_CRASH_AT";
  private static final int CRASH_EXIT = 99;

  /** Starts the server with crash point {@code point} armed and waits for it to halt there. */
  private void crashAt(String point) throws Exception {
    try (ServerProcess crashing = ServerProcess.spawn(arguments(), Map.of(CRASH_AT, point))) {
      assertEquals(CRASH_EXIT, crashing.awaitExit(120), "halt at " + point + ":\n" + crashing.output());
      final String name = point.contains(":") ? point.substring(0, point.indexOf(':')) : point;
      assertTrue(crashing.output().contains("crash point " + name + " reached"), crashing.output());
    }
  }

  private static void initialize(ServerProcess server) throws Exception {
    try (PartitaClient client = Clients.connect(server, "crash-init")) {
      assertEquals(6, client.callAsync("Initialize", 6, NAMES).join().firstLong());
    }
  }

  /** Loads the server (cycle {@code cycle}'s phones), kills it with calls in flight; returns when it was killed. */
  private long killUnderLoad(ServerProcess server, int cycle) throws Exception {
    final PartitaClient loading = load(server, cycle);
    final long killedAt = System.nanoTime();
    server.kill();
    server.close();
    loading.close();
    return killedAt;
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
          acceptedAt.put(phone, System.nanoTime());
          accepted.put(phone, contestant);
        } else if (answer != null && answer.ok()) {
          refused.add(phone);
        }
      });
    }
    return client; // open, with calls in flight when the server is killed
  }

  private void check(ServerProcess server, String when) throws Exception {
    check(server, when, null);
  }

  /**
   * Checks the votes and views; an accepted vote may be missing only if its
   * acceptance arrived at or after {@code lossAllowedFrom} (System.nanoTime();
   * null: no loss allowed), and is then moved to {@link #lost}, which must
   * stay absent.
   */
  private void check(ServerProcess server, String when, Long lossAllowedFrom) throws Exception {
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
        if (present.get(phone) == null && lossAllowedFrom != null && acceptedAt.get(phone) - lossAllowedFrom >= 0) {
          lost.add(phone);
        } else if (!contestant.equals(present.get(phone))) {
          problems.add("accepted vote " + phone + " for " + contestant + " is " + present.get(phone)
              + (lossAllowedFrom == null ? "" : " (accepted " + TimeUnit.NANOSECONDS.toMillis(lossAllowedFrom
              - acceptedAt.get(phone)) + " ms before the loss bound began)"));
        }
      });
      accepted.keySet().removeAll(lost);
      for (long phone : refused) {
        if (present.containsKey(phone)) {
          problems.add("refused vote " + phone + " is present");
        }
      }
      for (long phone : lost) {
        if (present.containsKey(phone)) {
          problems.add("vote " + phone + ", lost to an earlier power cut, is present");
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
