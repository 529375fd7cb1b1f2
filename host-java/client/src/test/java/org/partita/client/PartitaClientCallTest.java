package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.client.ClientTestSupport.closeQuietly;
import static org.partita.client.ClientTestSupport.route;
import static org.partita.client.ClientTestSupport.testConfig;

import com.google.protobuf.ByteString;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.Parameter;

class PartitaClientCallTest {
  private FakeServer server;
  private PartitaClient client;

  @AfterEach
  void tearDown() {
    closeQuietly(client, server);
  }

  private void start() throws Exception {
    server = FakeServer.started();
    client = new PartitaClient(testConfig().build());
    client.connect(server.address());
  }

  /** Answers every call with app status = its first parameter (an integer). */
  private void echoFirstParameter() {
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .setAppStatus((int) inv.getParameters(0).getInteger()));
  }

  @Test
  @Timeout(10)
  void shouldLogInAndLearnTheTopology() throws Exception {
    server = new FakeServer(FakeServer.loginResponse(3, 4, List.of(3, 3, 3, 3),
        List.of(route("Vote", true, 0, ValueType.BIGINT))));
    server.start(0);
    client = new PartitaClient(testConfig().clientName("voter-driver").build());
    client.connect(server.address());

    final ClusterTopology topology = client.topology();
    assertEquals(4, topology.partitionCount());
    assertEquals(List.of(3, 3, 3, 3), topology.partitionLeaders());
    assertEquals("127.0.0.1:21212", topology.hosts().get(3));
    assertEquals(1, topology.catalogVersion());
    assertEquals(1, topology.routedProcedures());
    assertEquals(List.of(server.address()), client.connectedServers());
    final LoginRequest login = server.logins.get(0);
    assertEquals(1, login.getProtocolVersion());
    assertEquals("voter-driver", login.getClientName());
  }

  @Test
  @Timeout(10)
  void shouldReturnTheResultTablesOfACall() throws Exception {
    start();
    final ResultTable table = new ResultTableBuilder().column("NAME", ValueType.VARCHAR)
        .column("VOTES", ValueType.BIGINT).row("Alice", 12L).row("Bob", null).build();
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .addResults(ByteString.copyFrom(table.bytes())).setServerNanos(1234).setAppStatus(7)
        .setAppStatusMessage("seven"));

    final ClientResponse response = client.call("Results");

    assertEquals(ClientResponse.Status.SUCCESS, response.status());
    assertEquals(1234, response.serverNanos());
    assertEquals(7, response.appStatus());
    assertEquals("seven", response.appStatusMessage());
    final ResultTable got = response.results().get(0);
    assertEquals(2, got.rowCount());
    assertTrue(got.advanceRow());
    assertEquals("Alice", got.getString("NAME"));
    assertEquals(12L, got.getLong("VOTES"));
    assertTrue(got.advanceRow());
    got.getLong(1);
    assertTrue(got.wasNull());
  }

  @Test
  @Timeout(10)
  void shouldSendEveryParameterTypeInItsWireForm() throws Exception {
    start();
    client.call("P", 5L, 6, (short) 7, (byte) 8, 1.5, 2.5f, new BigDecimal("-12.50"), "text", new byte[] {1, 2},
        Instant.ofEpochSecond(1, 2000), null);

    final Invocation inv = server.next().invocation();
    assertEquals("P", inv.getProcedure());
    final List<Parameter> p = inv.getParametersList();
    assertEquals(11, p.size());
    assertEquals(5L, p.get(0).getInteger());
    assertEquals(6L, p.get(1).getInteger());
    assertEquals(7L, p.get(2).getInteger());
    assertEquals(8L, p.get(3).getInteger());
    assertEquals(1.5, p.get(4).getFloatValue());
    assertEquals(2.5, p.get(5).getFloatValue());
    assertEquals("-12.50", p.get(6).getDecimal());
    assertEquals("text", p.get(7).getText());
    assertEquals(ByteString.copyFrom(new byte[] {1, 2}), p.get(8).getBinary());
    assertEquals(1_000_002L, p.get(9).getTimestampMicros());
    assertEquals(Parameter.ValueCase.VALUE_NOT_SET, p.get(10).getValueCase());
  }

  @Test
  @Timeout(10)
  void shouldMatchAnswersThatArriveOutOfOrder() throws Exception {
    start();
    server.onInvocation = (s, inv) -> { };
    final List<CompletableFuture<ClientResponse>> futures = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      futures.add(client.callAsync("P", (long) i));
    }
    final List<FakeServer.Received> received = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      received.add(server.next());
    }
    for (int i = 2; i >= 0; i--) {
      final Invocation inv = received.get(i).invocation();
      received.get(i).session().respond(FakeServer.success(inv.getClientHandle())
          .setAppStatus(100 + (int) inv.getParameters(0).getInteger()));
    }
    for (int i = 0; i < 3; i++) {
      assertEquals(100 + i, futures.get(i).get(5, TimeUnit.SECONDS).appStatus());
    }
  }

  @Test
  @Timeout(30)
  void shouldAnswerEveryConcurrentCallExactlyOnce() throws Exception {
    start();
    echoFirstParameter();
    final int threads = 8;
    final int callsPerThread = 1000;
    final AtomicInteger wrong = new AtomicInteger();
    final AtomicInteger answered = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(threads * callsPerThread);
    final List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final int base = t * callsPerThread;
      callers.add(new Thread(() -> {
        for (int i = 0; i < callsPerThread; i++) {
          final int value = base + i;
          client.callAsync((r, e) -> {
            if (e != null || r.appStatus() != value) {
              wrong.incrementAndGet();
            }
            answered.incrementAndGet();
            done.countDown();
          }, "Echo", (long) value);
        }
      }));
    }
    callers.forEach(Thread::start);
    for (Thread t : callers) {
      t.join();
    }
    assertTrue(done.await(20, TimeUnit.SECONDS), "answers missing: " + done.getCount());
    client.drain();
    assertEquals(0, wrong.get());
    assertEquals(threads * callsPerThread, answered.get());
    assertEquals(threads * callsPerThread, server.received.size());
  }

  @Test
  @Timeout(10)
  void shouldThrowProcedureCallExceptionForAFailedSynchronousCall() throws Exception {
    start();
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .setStatus(CallStatus.CALL_STATUS_GRACEFUL_FAILURE).setErrorName("CONSTRAINT_VIOLATION")
        .setMessage("duplicate key in pk_votes"));

    final ProcedureCallException e = assertThrows(ProcedureCallException.class, () -> client.call("Vote", 1L));

    assertEquals("Vote: GRACEFUL_FAILURE CONSTRAINT_VIOLATION: duplicate key in pk_votes", e.getMessage());
    assertEquals(ClientResponse.Status.GRACEFUL_FAILURE, e.response().status());
    assertFalse(RetriableException.class.isInstance(e));
  }

  @Test
  @Timeout(10)
  void shouldCompleteTheFutureNormallyWithAFailedAnswer() throws Exception {
    start();
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .setStatus(CallStatus.CALL_STATUS_USER_ABORT).setMessage("no such contestant"));

    final ClientResponse r = client.callAsync("Vote", 1L).get(5, TimeUnit.SECONDS);

    assertEquals(ClientResponse.Status.USER_ABORT, r.status());
    assertEquals("no such contestant", r.message());
  }

  @Test
  @Timeout(10)
  void shouldHandTheAnswerToACallback() throws Exception {
    start();
    echoFirstParameter();
    final CountDownLatch called = new CountDownLatch(1);
    final AtomicReference<ClientResponse> got = new AtomicReference<>();
    final AtomicReference<Throwable> failure = new AtomicReference<>();

    client.callAsync((r, e) -> {
      got.set(r);
      failure.set(e);
      called.countDown();
    }, "Echo", 41L);

    assertTrue(called.await(5, TimeUnit.SECONDS));
    assertEquals(41, got.get().appStatus());
    assertNull(failure.get());
  }

  @Test
  @Timeout(10)
  void shouldHandTheCallbackTheRoundTripTheClientMeasured() throws Exception {
    start();
    final AtomicLong heldNanos = new AtomicLong();
    server.onInvocation = (s, inv) -> new Thread(() -> {
      final long from = System.nanoTime();
      sleep(20);
      heldNanos.set(System.nanoTime() - from);
      s.respond(FakeServer.success(inv.getClientHandle()));
    }).start();
    final CountDownLatch called = new CountDownLatch(1);
    final AtomicLong roundTrip = new AtomicLong(-1);
    final long before = System.nanoTime();
    client.callAsync(new ProcedureCallback() {
      @Override
      public void onComplete(ClientResponse response, Throwable failure) {
        throw new AssertionError("the three-argument form is the one called");
      }

      @Override
      public void onComplete(ClientResponse response, Throwable failure, long roundTripNanos) {
        roundTrip.set(failure == null && response.ok() ? roundTripNanos : -1);
        called.countDown();
      }
    }, "Held", 1L);

    assertTrue(called.await(5, TimeUnit.SECONDS));
    final long whole = System.nanoTime() - before;
    assertTrue(roundTrip.get() >= heldNanos.get(), roundTrip.get() + " ns < the server's " + heldNanos.get());
    assertTrue(roundTrip.get() <= whole, roundTrip.get() + " ns > the test's " + whole);
  }

  @Test
  @Timeout(10)
  void shouldWaitInDrainUntilEveryCallIsAnswered() throws Exception {
    start();
    server.onInvocation = (s, inv) -> new Thread(() -> {
      sleep(100);
      s.respond(FakeServer.success(inv.getClientHandle()));
    }).start();
    final List<CompletableFuture<ClientResponse>> futures = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      futures.add(client.callAsync("Slow", (long) i));
    }

    client.drain();

    futures.forEach(f -> assertTrue(f.isDone()));
  }

  @Test
  @Timeout(10)
  void shouldFailCallsInFlightWhenClosed() throws Exception {
    start();
    server.onInvocation = (s, inv) -> { };
    final CompletableFuture<ClientResponse> pending = client.callAsync("Never", 1L);
    server.next();

    client.close();

    final ExecutionException e = assertThrows(ExecutionException.class, () -> pending.get(5, TimeUnit.SECONDS));
    assertInstanceOf(ConnectionLostException.class, e.getCause());
    assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
    assertThrows(IllegalStateException.class, () -> client.callAsync("P"));
  }

  @Test
  @Timeout(10)
  void shouldCallOverTheNioTransportToo() throws Exception {
    server = FakeServer.started();
    client = new PartitaClient(testConfig().epoll(false).build());
    client.connect(server.address());
    echoFirstParameter();
    assertEquals(9, client.call("Echo", 9L).appStatus());
  }

  @Test
  @Timeout(10)
  void shouldMakeConnectingTwiceToOneServerANoOp() throws Exception {
    start();
    client.connect(server.address());
    assertEquals(1, server.logins.size());
    assertEquals(1, client.connectedServers().size());
  }

  @Test
  @Timeout(10)
  void shouldRunChainedStagesWithTheAnswer() throws Exception {
    start();
    echoFirstParameter();
    final CompletableFuture<Integer> doubled = client.callAsync("Echo", 21L).thenApply(r -> r.appStatus() * 2);
    assertEquals(42, doubled.get(5, TimeUnit.SECONDS));
    assertSame(ClientResponse.Status.SUCCESS, client.call("Echo", 1L).status());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
