package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.client.ClientTestSupport.closeQuietly;
import static org.partita.client.ClientTestSupport.testConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.proto.CallStatus;

class PartitaClientStatisticsTest {
  private FakeServer server;
  private PartitaClient client;

  @AfterEach
  void tearDown() {
    closeQuietly(client, server);
  }

  private void start(ClientConfig config) throws Exception {
    server = FakeServer.started();
    client = new PartitaClient(config);
    client.connect(server.address());
  }

  /** "Slow" is answered after 20 ms, "Fail" with GRACEFUL_FAILURE, "Stuck" never, the rest at once. */
  private void answerByName() {
    server.onInvocation = (s, inv) -> {
      switch (inv.getProcedure()) {
        case "Slow" -> new Thread(() -> {
          sleep(20);
          s.respond(FakeServer.success(inv.getClientHandle()));
        }).start();
        case "Fail" -> s.respond(FakeServer.success(inv.getClientHandle())
            .setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE).setErrorName("SQL_ERROR"));
        case "Stuck" -> { }
        default -> s.respond(FakeServer.success(inv.getClientHandle()));
      }
    };
  }

  @Test
  @Timeout(20)
  void shouldCountCallsAndOutcomesPerProcedureAndInTotal() throws Exception {
    start(testConfig().build());
    answerByName();
    for (int i = 0; i < 100; i++) {
      client.call("Fast", (long) i);
    }
    for (int i = 0; i < 10; i++) {
      assertEquals(ClientResponse.Status.GRACEFUL_FAILURE, client.callAsync("Fail").get(5, TimeUnit.SECONDS).status());
    }
    assertThrows(CallTimeoutException.class, () -> client.call(Duration.ofMillis(20), "Stuck"));

    final StatisticsSnapshot s = client.statistics().snapshot();

    final CallStatistics fast = s.procedure("Fast");
    assertEquals(100, fast.calls());
    assertEquals(100, fast.successes());
    assertEquals(0, fast.failureCount());
    assertEquals(100, fast.latency().count());
    final CallStatistics fail = s.procedure("Fail");
    assertEquals(10, fail.failures(ClientResponse.Status.GRACEFUL_FAILURE));
    assertEquals(0, fail.successes());
    assertEquals(1, s.procedure("Stuck").timeouts());
    assertEquals(0, s.procedure("Stuck").latency().count());
    final CallStatistics total = s.total();
    assertEquals(111, total.calls());
    assertEquals(100, total.successes());
    assertEquals(10, total.failureCount());
    assertEquals(1, total.timeouts());
    assertEquals(110, total.latency().count());
    assertTrue(total.answersPerSecond() > 0);
  }

  @Test
  @Timeout(20)
  void shouldMeasureRoundTripLatencyInMicroseconds() throws Exception {
    start(testConfig().build());
    answerByName();
    final List<CompletableFuture<ClientResponse>> calls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      calls.add(client.callAsync("Slow", (long) i));
    }
    for (CompletableFuture<ClientResponse> c : calls) {
      c.get(5, TimeUnit.SECONDS);
    }

    final LatencySummary latency = client.statistics().snapshot().procedure("Slow").latency();

    assertEquals(20, latency.count());
    assertTrue(latency.p50Micros() >= 19_000, latency.toString());
    assertTrue(latency.p50Micros() <= latency.p95Micros(), latency.toString());
    assertTrue(latency.p95Micros() <= latency.p99Micros(), latency.toString());
    assertTrue(latency.p99Micros() <= latency.p999Micros(), latency.toString());
    assertTrue(latency.p999Micros() <= latency.maxMicros(), latency.toString());
    assertTrue(latency.maxMicros() < 5_000_000, latency.toString());
  }

  @Test
  @Timeout(10)
  void shouldStartANewIntervalOnSnapshotAndReset() throws Exception {
    start(testConfig().build());
    for (int i = 0; i < 5; i++) {
      client.call("Fast");
    }

    final StatisticsSnapshot first = client.statistics().snapshotAndReset();
    client.call("Fast");
    final StatisticsSnapshot second = client.statistics().snapshot();

    assertEquals(5, first.total().calls());
    assertEquals(5, first.total().latency().count());
    assertEquals(1, second.total().calls());
    assertEquals(1, second.procedure("Fast").successes());
    assertEquals(1, second.total().latency().count());
  }

  @Test
  @Timeout(10)
  void shouldCountConnectionLosses() throws Exception {
    start(testConfig().reconnect(false).build());
    answerByName();
    final CompletableFuture<ClientResponse> stuck = client.callAsync("Stuck");
    server.next();

    server.dropConnections();

    assertThrows(Exception.class, () -> stuck.get(5, TimeUnit.SECONDS));
    assertEquals(1, client.statistics().snapshot().procedure("Stuck").connectionLosses());
  }

  @Test
  @Timeout(20)
  void shouldHoldTheConfiguredRateRoughly() throws Exception {
    start(testConfig().rateLimitPerSecond(1000).build());
    final List<CompletableFuture<ClientResponse>> calls = new ArrayList<>();

    final long begin = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      calls.add(client.callAsync("Fast", (long) i));
    }
    for (CompletableFuture<ClientResponse> c : calls) {
      c.get(5, TimeUnit.SECONDS);
    }
    final long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);

    assertTrue(elapsedMillis >= 150, "200 calls at 1,000/s took only " + elapsedMillis + " ms");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
