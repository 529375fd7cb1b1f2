package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.PartitaClient;
import org.partita.client.ProcedureCallException;
import org.partita.client.ResultTable;

/**
 * The Voter workload end to end on a real two-site server through the Java
 * client: Initialize, 3,000 votes whose outcomes the test predicts (accepted,
 * invalid contestant, over the limit), then Results and ad-hoc SELECTs must
 * agree with the test's own tally.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class VoterProceduresTest {
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";
  private static final int CONTESTANTS = 6;
  private static final long MAX_VOTES = 3;
  private static final int VOTES_PER_PHONE = 5;
  private static final int PHONES_PER_AREA = 150;
  /** Area codes and the state Vote must record for them; 999 is no US area code. */
  private static final Map<Long, String> AREAS = Map.of(617L, "MA", 212L, "NY", 415L, "CA", 999L, "XX");

  private static ServerProcess server;
  private static PartitaClient client;
  private static ClientResponse tooManyContestants;
  private static ClientResponse initialized;
  private static ClientResponse initializedAgain;
  private static final List<String> wrongOutcomes = new ArrayList<>();
  private static final long[] acceptedPerContestant = new long[CONTESTANTS + 1];
  private static final Map<String, Long> acceptedPerState = new TreeMap<>();
  private static final Map<Long, Long> acceptedPerPhone = new TreeMap<>();
  private static long votesCast;

  @BeforeAll
  static void startInitializeAndVote() throws Exception {
    server = ServerProcess.voter(2);
    client = Clients.connect(server, "voter-test");
    tooManyContestants = client.callAsync("Initialize", CONTESTANTS + 1, NAMES).join();
    initialized = client.callAsync("Initialize", CONTESTANTS, NAMES).join();
    initializedAgain = client.callAsync("Initialize", 2, "X,Y").join();
    for (int round = 0; round < VOTES_PER_PHONE; round++) {
      voteRound(round);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(client, server);
  }

  /** Every phone votes once, all calls in flight together; each answer is checked against the rules. */
  private static void voteRound(int round) {
    final List<Long> phones = new ArrayList<>();
    final List<CompletableFuture<ClientResponse>> answers = new ArrayList<>();
    for (long area : AREAS.keySet()) {
      for (long i = 0; i < PHONES_PER_AREA; i++) {
        final long phone = area * 10_000_000L + 5_550_000L + i;
        phones.add(phone);
        answers.add(client.callAsync("Vote", phone, contestantOf(phone, round), MAX_VOTES));
      }
    }
    for (int i = 0; i < phones.size(); i++) {
      final long phone = phones.get(i);
      final ClientResponse answer = answers.get(i).join();
      votesCast++;
      final long expected = expectOutcome(phone, contestantOf(phone, round));
      if (!answer.ok() || answer.appStatus() != 0 || answer.firstLong() != expected) {
        wrongOutcomes.add("phone " + phone + " round " + round + ": expected " + expected + ", got " + answer
            + (answer.ok() ? " -> " + answer.firstLong() + " app status " + answer.appStatus() : ""));
      }
    }
  }

  /** Contestant 7 does not exist: every seventh vote is for nobody. */
  private static int contestantOf(long phone, int round) {
    return 1 + (int) ((phone + round) % (CONTESTANTS + 1));
  }

  /** Applies Vote's rules to the test's tally: 1 no such contestant, 2 over the limit, 0 accepted. */
  private static long expectOutcome(long phone, int contestant) {
    if (contestant > CONTESTANTS) {
      return 1;
    }
    final long cast = acceptedPerPhone.getOrDefault(phone, 0L);
    if (cast >= MAX_VOTES) {
      return 2;
    }
    acceptedPerPhone.put(phone, cast + 1);
    acceptedPerContestant[contestant]++;
    acceptedPerState.merge(AREAS.get(phone / 10_000_000L), 1L, Long::sum);
    return 0;
  }

  private static long acceptedVotes() {
    return acceptedPerPhone.values().stream().mapToLong(Long::longValue).sum();
  }

  @Test
  void initializeAbortsOnMoreContestantsThanNames() {
    assertEquals(Status.USER_ABORT, tooManyContestants.status(), tooManyContestants.toString());
    assertTrue(tooManyContestants.message().contains("between 1 and 6, got 7"), tooManyContestants.message());
  }

  @Test
  void initializeLoadsTheContestantsOnce() {
    assertEquals(CONTESTANTS, initialized.firstLong());
    assertEquals(CONTESTANTS, initializedAgain.firstLong(), "a second Initialize keeps the first contestants");
    assertEquals(CONTESTANTS, Clients.queryLong(client, "SELECT COUNT(*) FROM contestants"));
    assertEquals(264, Clients.queryLong(client, "SELECT COUNT(*) FROM area_code_state"));
  }

  @Test
  void everyVoteGetsTheOutcomeTheRulesGive() {
    assertEquals(List.of(), wrongOutcomes);
    assertTrue(acceptedVotes() > 0 && acceptedVotes() < votesCast, "the test must exercise every outcome");
  }

  @Test
  void resultsStandingsEqualTheAcceptedVotes() {
    final List<List<Object>> expected = new ArrayList<>();
    final String[] names = NAMES.split(",");
    for (int c = 1; c <= CONTESTANTS; c++) {
      expected.add(List.of(names[c - 1], c, acceptedPerContestant[c]));
    }
    expected.sort(Comparator.comparing((List<Object> row) -> -(Long) row.get(2))
        .thenComparing(row -> (Integer) row.get(1)));
    final ResultTable standings = client.call("Results").results().get(0);
    assertEquals(List.of("CONTESTANT_NAME", "CONTESTANT_NUMBER", "TOTAL_VOTES"),
        List.of(standings.columnName(0), standings.columnName(1), standings.columnName(2)));
    assertEquals(expected, Clients.rows(standings));
  }

  @Test
  void adHocCountsAgreeWithTheTally() {
    assertEquals(acceptedVotes(), Clients.queryLong(client, "SELECT COUNT(*) FROM votes"));
    final List<List<Object>> perContestant = new ArrayList<>();
    for (int c = 1; c <= CONTESTANTS; c++) {
      perContestant.add(List.of(c, acceptedPerContestant[c]));
    }
    assertEquals(perContestant, Clients.rows(Clients.query(client,
        "SELECT contestant_number, COUNT(*) FROM votes GROUP BY contestant_number ORDER BY contestant_number")));
    final List<List<Object>> perState = new ArrayList<>();
    acceptedPerState.forEach((state, n) -> perState.add(List.of(state, n)));
    assertEquals(perState, Clients.rows(Clients.query(client,
        "SELECT state, SUM(num_votes) FROM v_votes_by_contestant_number_state GROUP BY state ORDER BY state")));
  }

  @Test
  void theVoteLimitHoldsForEveryPhone() {
    assertEquals(MAX_VOTES, Clients.queryLong(client, "SELECT MAX(num_votes) FROM v_votes_by_phone_number"));
    assertEquals(acceptedPerPhone.size(), Clients.queryLong(client,
        "SELECT COUNT(*) FROM v_votes_by_phone_number"));
    for (long phone : List.of(6175550000L, 2125550042L, 4155550149L, 9995550007L)) {
      assertEquals(acceptedPerPhone.get(phone), Clients.queryLong(client,
          "SELECT COUNT(*) FROM votes WHERE phone_number = ?", phone), "phone " + phone);
    }
  }

  @Test
  void serverStatisticsCountEveryVote() {
    final ResultTable stats = client.call("@Statistics", "PROCEDURE").results().get(0);
    long invocations = -1;
    long failures = -1;
    while (stats.advanceRow()) {
      if (stats.getString("PROCEDURE_NAME").equalsIgnoreCase("Vote")) {
        invocations = stats.getLong("INVOCATIONS");
        failures = stats.getLong("FAILURES");
      }
    }
    assertEquals(votesCast, invocations);
    assertEquals(0, failures, "outcomes 1 and 2 are results, not failures");
  }

  @Test
  void aFailingAdHocWriteThrowsWithTheConstraintAndChangesNothing() {
    final ProcedureCallException e = assertThrows(ProcedureCallException.class, () -> client.call("@AdHoc",
        "INSERT INTO contestants VALUES (1, 'Duplicate')"));
    assertEquals(Status.GRACEFUL_FAILURE, e.response().status());
    assertEquals("CONSTRAINT_VIOLATION", e.response().errorName());
    assertTrue(e.getMessage().contains("@AdHoc"), e.getMessage());
    assertEquals(CONTESTANTS, Clients.queryLong(client, "SELECT COUNT(*) FROM contestants"));
    assertEquals("Edwina Burnam",
        firstString("SELECT contestant_name FROM contestants WHERE contestant_number = ?", 1));
  }

  @Test
  void anUnknownProcedureIsRejectedAsNotFound() {
    final ClientResponse answer = client.callAsync("Vot", 1L, 1, 1L).join();
    assertEquals(Status.REJECTED, answer.status());
    assertEquals("PROCEDURE_NOT_FOUND", answer.errorName());
    assertTrue(answer.message().contains("Vot"), answer.message());
  }

  private static String firstString(String sql, Object... parameters) {
    final ResultTable t = Clients.query(client, sql, parameters);
    assertTrue(t.advanceRow(), sql);
    return t.getString(0);
  }
}
