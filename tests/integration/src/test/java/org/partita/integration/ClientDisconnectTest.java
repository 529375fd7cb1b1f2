package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * A client closed with thousands of votes in flight: its unanswered calls
 * fail with ConnectionLostException, another client is served throughout,
 * and every vote the server committed is counted exactly once. The
 * disconnect happens once, in {@code @BeforeAll}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClientDisconnectTest {
  private static final int LEAVING_CALLS = 10_000;
  private static final long LEAVING_PHONES = 6_170_000_000L;
  private static final long STAYING_PHONES = 2_120_000_000L;
  private static final int STAYING_CALLS = 500;

  private static ServerProcess server;
  private static PartitaClient staying;
  private static PartitaClient leaving;
  private static final List<CompletableFuture<ClientResponse>> leavingCalls = new ArrayList<>();
  private static final List<CompletableFuture<ClientResponse>> stayingCalls = new ArrayList<>();
  private static long leavingAccepted;
  private static long leavingLost;

  @BeforeAll
  static void startVoteAndLeave() throws Exception {
    server = ServerProcess.voter(2);
    staying = Clients.connect(server, "staying");
    staying.call("Initialize", 6, "A,B,C,D,E,F");
    leaving = Clients.connect(server, ClientConfig.builder().clientName("leaving").reconnect(false)
        .maxInFlightPerConnection(LEAVING_CALLS * 2).callTimeout(Duration.ofSeconds(60)).build());
    for (int i = 0; i < LEAVING_CALLS; i++) {
      leavingCalls.add(leaving.callAsync("Vote", LEAVING_PHONES + i, 1 + i % 6, 1L));
      if (i == LEAVING_CALLS / 2) {
        for (int j = 0; j < STAYING_CALLS; j++) {
          stayingCalls.add(staying.callAsync("Vote", STAYING_PHONES + j, 1 + j % 6, 1L));
        }
      }
    }
    leaving.close();
    for (CompletableFuture<ClientResponse> call : leavingCalls) {
      try {
        final ClientResponse answer = call.get(30, TimeUnit.SECONDS);
        assertEquals(0, answer.firstLong(), answer.toString());
        leavingAccepted++;
      } catch (java.util.concurrent.ExecutionException e) {
        assertInstanceOf(ConnectionLostException.class, e.getCause());
        leavingLost++;
      }
    }
    awaitServerQuiet();
  }

  @AfterAll
  static void stop() throws Exception {
    if (leaving != null) {
      leaving.close();
    }
    if (staying != null) {
      staying.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * Calls of a closed connection still run. Once the server has closed its
   * side of the leaving connection (it is gone from {@code @Statistics
   * CONNECTIONS}), nothing more is dispatched from it; every call it did
   * dispatch already sits in a partition's queue, and a multi-partition
   * read queues behind all of them on every partition, so when it answers
   * they have run (sites run their queues in order).
   */
  private static void awaitServerQuiet() throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (leavingConnectionOpen()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the server did not close the leaving connection within 60 s");
      }
      Thread.sleep(10);
    }
    Clients.queryLong(staying, "SELECT COUNT(*) FROM votes");
  }

  private static boolean leavingConnectionOpen() {
    final ResultTable connections = staying.call("@Statistics", "CONNECTIONS").results().get(0);
    while (connections.advanceRow()) {
      if (connections.getString("CLIENT_NAME").equals("leaving")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void unansweredCallsFailWithConnectionLost() {
    assertEquals(LEAVING_CALLS, leavingAccepted + leavingLost);
    assertTrue(leavingLost > 0, "closing must have cut some calls short (accepted " + leavingAccepted + ")");
  }

  @Test
  void aClosedClientRefusesNewCalls() {
    assertThrows(IllegalStateException.class, () -> leaving.callAsync("@Ping"));
  }

  @Test
  void theOtherClientIsServedThroughout() {
    for (CompletableFuture<ClientResponse> call : stayingCalls) {
      assertEquals(0, call.join().firstLong());
    }
    assertEquals("pong", pong());
    assertEquals(STAYING_CALLS, Clients.queryLong(staying,
        "SELECT COUNT(*) FROM votes WHERE phone_number BETWEEN ? AND ?", STAYING_PHONES, STAYING_PHONES + 9_999));
  }

  @Test
  void everyCommittedVoteIsCountedOnce() {
    final long votes = Clients.queryLong(staying, "SELECT COUNT(*) FROM votes");
    assertEquals(votes, Clients.queryLong(staying, "SELECT SUM(num_votes) FROM v_votes_by_phone_number"));
    assertEquals(votes, Clients.queryLong(staying, "SELECT SUM(num_votes) FROM v_votes_by_contestant_number_state"));
    assertEquals(1, Clients.queryLong(staying, "SELECT MAX(num_votes) FROM v_votes_by_phone_number"));
    final long fromLeaving = Clients.queryLong(staying,
        "SELECT COUNT(*) FROM votes WHERE phone_number BETWEEN ? AND ?", LEAVING_PHONES, LEAVING_PHONES + 99_999);
    assertTrue(fromLeaving >= leavingAccepted && fromLeaving <= LEAVING_CALLS,
        "committed " + fromLeaving + ", answered as accepted " + leavingAccepted);
    assertEquals(votes, fromLeaving + STAYING_CALLS);
  }

  @Test
  void everyVoteAnsweredAsAcceptedIsStored() {
    final StringBuilder phones = new StringBuilder();
    for (int i = 0; i < LEAVING_CALLS; i++) {
      if (leavingCalls.get(i).isDone() && !leavingCalls.get(i).isCompletedExceptionally()) {
        phones.append(phones.length() == 0 ? "" : ",").append(LEAVING_PHONES + i);
      }
    }
    if (phones.length() > 0) {
      assertEquals(leavingAccepted, Clients.queryLong(staying,
          "SELECT COUNT(*) FROM votes WHERE phone_number IN (" + phones + ")"));
    }
  }

  private static String pong() {
    final ResultTable t = staying.call("@Ping").results().get(0);
    t.advanceRow();
    return t.getString("RESPONSE");
  }
}
