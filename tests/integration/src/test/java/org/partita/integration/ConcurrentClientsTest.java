package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.CallStatistics;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * Eight clients, each on its own thread, make 2,000 asynchronous calls at
 * once (votes, single-partition and multi-partition ad-hoc reads) against
 * one two-site Voter server. Every call is answered exactly once, the data
 * adds up, and the server's statistics show the eight connections and count
 * every call. The load runs once, in {@code @BeforeAll}; each test checks one
 * consequence.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ConcurrentClientsTest {
  private static final int CLIENTS = 8;
  private static final int CALLS = 2_000;
  private static final int CONTESTANTS = 6;

  private static ServerProcess server;
  private static final List<PartitaClient> clients = new ArrayList<>();
  /** Per client, per call: how many times its callback ran. */
  private static final List<AtomicIntegerArray> answered = new ArrayList<>();
  private static final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
  private static final AtomicLong accepted = new AtomicLong();
  private static final AtomicLong invalid = new AtomicLong();
  private static final Map<String, Long> expectedCalls = new HashMap<>();
  private static ResultTable connectionsDuringTheRun;
  private static ResultTable proceduresOfTheRun;

  @BeforeAll
  static void startAndLoad() throws Exception {
    server = ServerProcess.voter(2);
    for (int c = 0; c < CLIENTS; c++) {
      clients.add(Clients.connect(server, "concurrent-" + c));
      answered.add(new AtomicIntegerArray(CALLS));
    }
    clients.get(0).call("Initialize", CONTESTANTS, "A,B,C,D,E,F");
    clients.get(0).call("@Statistics", "PROCEDURE", 1);
    final CountDownLatch go = new CountDownLatch(1);
    final List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      final int client = c;
      final Thread t = new Thread(() -> load(client, go), "load-" + c);
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join(TimeUnit.MINUTES.toMillis(2));
    }
    for (PartitaClient client : clients) {
      client.drain();
    }
    proceduresOfTheRun = clients.get(0).call("@Statistics", "PROCEDURE", 1).results().get(0);
    connectionsDuringTheRun = clients.get(0).call("@Statistics", "CONNECTIONS").results().get(0);
    expectedCalls.put("Vote", (long) CLIENTS * (CALLS - CALLS / 4));
    expectedCalls.put("@AdHoc", (long) CLIENTS * (CALLS / 4));
  }

  @AfterAll
  static void stop() throws Exception {
    for (PartitaClient client : clients) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Every fourth call reads; every tenth vote is for a contestant that does not exist. */
  private static void load(int client, CountDownLatch go) {
    try {
      go.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    final PartitaClient partita = clients.get(client);
    for (int i = 0; i < CALLS; i++) {
      final int call = i;
      final long phone = 6_170_000_000L + client * 100_000L + i;
      if (i % 4 == 3) {
        final String sql = i % 8 == 3 ? "SELECT COUNT(*) FROM votes WHERE phone_number = ?"
            : "SELECT COUNT(*) FROM v_votes_by_contestant_number_state WHERE num_votes > ?";
        partita.callAsync((response, failure) -> {
          record(client, call, response == null || !response.ok() ? "read failed: " + failure + " " + response : null);
        }, "@AdHoc", sql, phone - 1);
      } else {
        final int contestant = i % 10 == 0 ? CONTESTANTS + 1 : 1 + i % CONTESTANTS;
        final long expected = contestant > CONTESTANTS ? 1 : 0;
        (expected == 0 ? accepted : invalid).incrementAndGet();
        partita.callAsync((response, failure) -> {
          final boolean right = response != null && response.ok() && response.firstLong() == expected;
          record(client, call, right ? null : "vote " + phone + ": expected " + expected + ", got " + failure
              + " " + response);
        }, "Vote", phone, contestant, 1L);
      }
    }
  }

  private static void record(int client, int call, String problem) {
    answered.get(client).incrementAndGet(call);
    if (problem != null) {
      unexpected.add(problem);
    }
  }

  @Test
  void everyCallIsAnsweredExactlyOnceAsExpected() {
    for (int c = 0; c < CLIENTS; c++) {
      for (int i = 0; i < CALLS; i++) {
        assertEquals(1, answered.get(c).get(i), "client " + c + " call " + i);
      }
    }
    assertEquals(List.of(), List.copyOf(unexpected));
  }

  @Test
  void theVotesAddUp() {
    final PartitaClient client = clients.get(0);
    assertEquals(accepted.get(), Clients.queryLong(client, "SELECT COUNT(*) FROM votes"));
    assertEquals(accepted.get(), Clients.queryLong(client, "SELECT SUM(num_votes) FROM v_votes_by_phone_number"));
    assertEquals(accepted.get(), Clients.queryLong(client,
        "SELECT SUM(num_votes) FROM v_votes_by_contestant_number_state"));
    final ResultTable standings = client.call("Results").results().get(0);
    long total = 0;
    while (standings.advanceRow()) {
      total += standings.getLong(2);
    }
    assertEquals(accepted.get(), total);
  }

  @Test
  void connectionStatisticsShowEveryClient() {
    final Map<String, Long> received = new HashMap<>();
    connectionsDuringTheRun.resetRowPosition();
    while (connectionsDuringTheRun.advanceRow()) {
      received.put(connectionsDuringTheRun.getString("CLIENT_NAME"),
          connectionsDuringTheRun.getLong("CALLS_RECEIVED"));
      final String address = connectionsDuringTheRun.getString("REMOTE_ADDRESS");
      assertTrue(address.contains("127.0.0.1:"), address);
    }
    assertEquals(CLIENTS, received.size(), received.toString());
    for (int c = 1; c < CLIENTS; c++) {
      assertEquals(CALLS, received.get("concurrent-" + c), "concurrent-" + c);
    }
    assertEquals(CALLS + 4, received.get("concurrent-0"), "its own Initialize and @Statistics calls too");
  }

  @Test
  void remoteAddressIsAddressAndPortAsDocumented() {
    connectionsDuringTheRun.resetRowPosition();
    while (connectionsDuringTheRun.advanceRow()) {
      final String address = connectionsDuringTheRun.getString("REMOTE_ADDRESS");
      assertTrue(address.matches("127\\.0\\.0\\.1:\\d+"), address);
    }
  }

  @Test
  void procedureStatisticsCountEveryCall() {
    final Map<String, Long> invocations = new HashMap<>();
    proceduresOfTheRun.resetRowPosition();
    while (proceduresOfTheRun.advanceRow()) {
      invocations.put(proceduresOfTheRun.getString("PROCEDURE_NAME"), proceduresOfTheRun.getLong("INVOCATIONS"));
      assertEquals(0, proceduresOfTheRun.getLong("FAILURES"), proceduresOfTheRun.getString("PROCEDURE_NAME"));
    }
    assertEquals(expectedCalls.get("Vote"), invocations.get("Vote"), invocations.toString());
    assertEquals(expectedCalls.get("@AdHoc"), invocations.get("@AdHoc"), invocations.toString());
  }

  @Test
  void clientStatisticsCountEveryCall() {
    for (PartitaClient client : clients) {
      final CallStatistics votes = client.statistics().snapshot().procedure("Vote");
      assertEquals(CALLS - CALLS / 4, votes.calls(), votes.toString());
      assertEquals(votes.calls(), votes.successes(), votes.toString());
      assertEquals(0, votes.timeouts() + votes.connectionLosses() + votes.rejectedByClient(), votes.toString());
    }
  }
}
