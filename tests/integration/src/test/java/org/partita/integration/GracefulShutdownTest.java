package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ConnectionLostException;
import org.partita.client.NoConnectionsException;
import org.partita.client.PartitaClient;

/**
 * Stopping a server with work in flight: on SIGTERM every call it accepted
 * is answered (a vote, or REJECTED SHUTTING_DOWN once shutdown began), only
 * calls the closed connection cut short fail, and the process exits after
 * logging "shutting down" and "stopped" (with code 0: see the disabled test). {@code @Shutdown} stops it the same
 * way from inside. Each test starts and stops its own server.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class GracefulShutdownTest {
  private static final int CALLS = 40_000;

  private static ClientConfig config(String name) {
    return ClientConfig.builder().clientName(name).reconnect(false).maxInFlightPerConnection(CALLS)
        .callTimeout(Duration.ofSeconds(60)).build();
  }

  @Test
  void sigtermAnswersEveryAcceptedCallAndLogsItsStop() throws Exception {
    try (ServerProcess server = ServerProcess.voter(2);
        PartitaClient client = Clients.connect(server, config("shutdown-sigterm"))) {
      client.call("Initialize", 6, "A,B,C,D,E,F");
      final AtomicReferenceArray<CompletableFuture<ClientResponse>> calls = new AtomicReferenceArray<>(CALLS);
      final AtomicInteger made = new AtomicInteger();
      final Thread caller = new Thread(() -> {
        for (int i = 0; i < CALLS; i++) {
          try {
            calls.set(i, client.callAsync("Vote", 6_170_000_000L + i, 1 + i % 6, 1L));
          } catch (NoConnectionsException e) {
            calls.set(i, CompletableFuture.failedFuture(e));
          }
          made.incrementAndGet();
        }
      }, "caller");
      caller.start();
      // SIGTERM only once the server has answered a call: the caller can make all its calls before the
      // client has written any, and a server stopped then has accepted nothing to answer.
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while ((made.get() < 5_000 || calls.get(0) == null || !calls.get(0).isDone()) && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      server.terminate(60);
      caller.join(TimeUnit.SECONDS.toMillis(60));
      assertEquals(CALLS, made.get(), "the caller thread must finish");
      final List<CompletableFuture<ClientResponse>> all = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        all.add(calls.get(i));
      }
      final Map<String, Integer> outcomes = outcomes(all);
      assertEquals(CALLS, outcomes.values().stream().mapToInt(Integer::intValue).sum(), outcomes.toString());
      assertEquals(List.of(), outcomes.keySet().stream().filter(k -> k.startsWith("UNEXPECTED")).toList(),
          outcomes.toString());
      assertTrue(outcomes.getOrDefault("accepted", 0) > 0, outcomes + "\n" + server.output());
      final String output = server.output();
      assertTrue(output.contains("shutting down"), output);
      assertTrue(output.contains("stopped"), output);
      assertFalse(output.contains("still unanswered"), output);
      assertTrue(output.indexOf("shutting down") < output.indexOf("stopped"), output);
    }
  }

  @Test
  void sigtermExitsWithCodeZero() throws Exception {
    try (ServerProcess server = ServerProcess.voter(1)) {
      assertEquals(0, server.terminate(60), server.output());
    }
  }

  /** Counts the calls by outcome; anything the shutdown contract does not allow is keyed "UNEXPECTED ...". */
  private static Map<String, Integer> outcomes(List<CompletableFuture<ClientResponse>> calls)
      throws InterruptedException {
    final Map<String, Integer> outcomes = new TreeMap<>();
    for (CompletableFuture<ClientResponse> call : calls) {
      String outcome;
      try {
        final ClientResponse answer = call.get(30, TimeUnit.SECONDS);
        if (answer.ok() && answer.firstLong() == 0) {
          outcome = "accepted";
        } else if (answer.status() == Status.REJECTED && answer.errorName().equals("SHUTTING_DOWN")) {
          outcome = "rejected: shutting down";
        } else {
          outcome = "UNEXPECTED answer " + answer;
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof ConnectionLostException) {
          outcome = "connection lost";
        } else if (e.getCause() instanceof NoConnectionsException) {
          outcome = "not sent: no connection";
        } else {
          outcome = "UNEXPECTED failure " + e.getCause();
        }
      } catch (TimeoutException e) {
        outcome = "UNEXPECTED: no answer within 30 s";
      }
      outcomes.merge(outcome, 1, Integer::sum);
    }
    return outcomes;
  }

  @Test
  void atShutdownAnswersThenTheProcessExitsByItself() throws Exception {
    try (ServerProcess server = ServerProcess.voter(1);
        PartitaClient client = Clients.connect(server, config("shutdown-call"))) {
      client.call("Initialize", 6, "A,B,C,D,E,F");
      final ClientResponse answer = client.call("@Shutdown");
      assertEquals(Status.SUCCESS, answer.status());
      assertEquals(List.of(), answer.results());
      assertEquals(0, server.awaitExit(60), server.output());
      assertTrue(server.output().contains("shutting down"), server.output());
      assertTrue(server.output().contains("stopped"), server.output());
    }
  }
}
