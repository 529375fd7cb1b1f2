package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.partita.client.ClientTestSupport.closeQuietly;
import static org.partita.client.ClientTestSupport.eventually;
import static org.partita.client.ClientTestSupport.testConfig;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;

class PartitaClientFailureTest {
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

  private static Throwable failureOf(CompletableFuture<ClientResponse> future) {
    final ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
    return e.getCause();
  }

  @Test
  @Timeout(10)
  void shouldTimeOutACallThatGetsNoAnswer() throws Exception {
    start(testConfig().build());
    server.onInvocation = (s, inv) -> { };

    final long begin = System.nanoTime();
    final Throwable failure = failureOf(client.callAsync(Duration.ofMillis(50), "Stuck", 1L));

    final CallTimeoutException timeout = assertInstanceOf(CallTimeoutException.class, failure);
    assertEquals("call to Stuck timed out after 50 ms without an answer", timeout.getMessage());
    assertEquals("Stuck", timeout.procedure());
    assertTrue(System.nanoTime() - begin >= TimeUnit.MILLISECONDS.toNanos(50));
    assertInstanceOf(RetriableException.class, timeout);
  }

  @Test
  @Timeout(10)
  void shouldDropAndCountAnAnswerThatArrivesAfterTheTimeout() throws Exception {
    start(testConfig().build());
    server.onInvocation = (s, inv) -> { };
    final CompletableFuture<ClientResponse> call = client.callAsync(Duration.ofMillis(20), "Late", 1L);
    final FakeServer.Received received = server.next();
    assertInstanceOf(CallTimeoutException.class, failureOf(call));

    received.session().respond(FakeServer.success(received.invocation().getClientHandle()));

    eventually("the late answer is counted", () -> client.statistics().snapshot().lateResponses() == 1);
    assertEquals(1, client.statistics().snapshot().procedure("Late").timeouts());
  }

  @Test
  @Timeout(10)
  void shouldFailCallsInFlightWhenTheServerClosesTheConnection() throws Exception {
    start(testConfig().reconnect(false).build());
    server.onInvocation = (s, inv) -> { };
    final CompletableFuture<ClientResponse> first = client.callAsync("Vote", 1L);
    final CompletableFuture<ClientResponse> second = client.callAsync("Vote", 2L);
    server.next();
    server.next();

    server.dropConnections();

    for (CompletableFuture<ClientResponse> f : List.of(first, second)) {
      final Throwable failure = failureOf(f);
      assertInstanceOf(ConnectionLostException.class, failure);
      assertTrue(failure.getMessage().contains(server.address()), failure.getMessage());
      assertTrue(failure.getMessage().contains("Vote"), failure.getMessage());
    }
    eventually("the connection is down", () -> client.connectedServers().isEmpty());
    assertInstanceOf(NoConnectionsException.class, failureOf(client.callAsync("Vote", 3L)));
  }

  @Test
  @Timeout(10)
  void shouldReopenADroppedConnectionOnConnectWhenReconnectIsOff() throws Exception {
    start(testConfig().reconnect(false).build());
    server.dropConnections();
    eventually("the connection is down", () -> client.connectedServers().isEmpty());

    client.connect(server.address());

    assertEquals(ClientResponse.Status.SUCCESS, client.call("Vote", 1L).status());
    assertEquals(2, server.logins.size());
  }

  @Test
  @Timeout(20)
  void shouldReconnectWhenTheServerComesBack() throws Exception {
    start(testConfig().build());
    final int port = server.port();
    server.close();
    eventually("the connection is down", () -> client.connectedServers().isEmpty());
    final Throwable whileDown = failureOf(client.callAsync("Vote", 1L));
    assertInstanceOf(NoConnectionsException.class, whileDown);
    assertTrue(whileDown.getMessage().contains("reconnecting"), whileDown.getMessage());

    server.start(port);
    eventually("the client reconnected", () -> !client.connectedServers().isEmpty());

    assertEquals(ClientResponse.Status.SUCCESS, client.call("Vote", 2L).status());
    assertEquals(2, server.logins.size());
  }

  @Test
  @Timeout(10)
  void shouldRefuseACallWhenTheInFlightLimitStaysFull() throws Exception {
    start(testConfig().maxInFlightPerConnection(10).backpressureTimeout(Duration.ofMillis(100)).build());
    server.onInvocation = (s, inv) -> { };
    final List<CompletableFuture<ClientResponse>> pending = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      pending.add(client.callAsync("Never", (long) i));
    }

    final long begin = System.nanoTime();
    final Throwable failure = failureOf(client.callAsync("Never", 10L));

    assertTrue(System.nanoTime() - begin >= TimeUnit.MILLISECONDS.toNanos(80));
    final BackpressureException e = assertInstanceOf(BackpressureException.class, failure);
    assertTrue(e.getMessage().contains("10 calls in flight"), e.getMessage());
    pending.forEach(f -> assertTrue(!f.isDone()));
    assertEquals(1, client.statistics().snapshot().total().rejectedByClient());
  }

  @Test
  @Timeout(10)
  void shouldBoundTheCallsInFlightOfTheWholeClientAndGiveRoomBackBeforeTheCallback() throws Exception {
    start(testConfig().maxInFlight(2).backpressureTimeout(Duration.ofMillis(100)).build());
    server.onInvocation = (s, inv) -> { };
    final CompletableFuture<ClientResponse> first = client.callAsync("P", 1L);
    final CompletableFuture<ClientResponse> second = client.callAsync("P", 2L);
    final FakeServer.Received firstReceived = server.next();
    final FakeServer.Received secondReceived = server.next();

    final Throwable failure = failureOf(client.callAsync("P", 3L));

    final BackpressureException e = assertInstanceOf(BackpressureException.class, failure);
    assertTrue(e.getMessage().contains("2 calls in flight on the client"), e.getMessage());
    // The first answer's callback makes a call: the room its call gave back is there for it, on the I/O thread.
    final CompletableFuture<Throwable> fromCallback = new CompletableFuture<>();
    first.whenComplete((r, f) -> client.callAsync((r2, f2) -> fromCallback.complete(f2), "P", 4L));
    firstReceived.session().respond(FakeServer.success(firstReceived.invocation().getClientHandle()));
    final FakeServer.Received fourth = server.next();
    fourth.session().respond(FakeServer.success(fourth.invocation().getClientHandle()));
    assertNull(fromCallback.get(5, TimeUnit.SECONDS));
    secondReceived.session().respond(FakeServer.success(secondReceived.invocation().getClientHandle()));
    assertEquals(ClientResponse.Status.SUCCESS, second.get(5, TimeUnit.SECONDS).status());
    assertEquals(1, client.statistics().snapshot().total().rejectedByClient());
  }

  @Test
  @Timeout(10)
  void shouldMakeRoomWhenACallInFlightIsAnswered() throws Exception {
    start(testConfig().maxInFlightPerConnection(1).backpressureTimeout(Duration.ofSeconds(5)).build());
    server.onInvocation = (s, inv) -> { };
    final CompletableFuture<ClientResponse> first = client.callAsync("P", 1L);
    final FakeServer.Received received = server.next();
    new Thread(() -> {
      sleep(50);
      received.session().respond(FakeServer.success(received.invocation().getClientHandle()));
    }).start();

    final CompletableFuture<ClientResponse> second = client.callAsync("P", 2L);

    assertEquals(ClientResponse.Status.SUCCESS, first.get(5, TimeUnit.SECONDS).status());
    final FakeServer.Received secondReceived = server.next();
    secondReceived.session().respond(FakeServer.success(secondReceived.invocation().getClientHandle()));
    assertEquals(ClientResponse.Status.SUCCESS, second.get(5, TimeUnit.SECONDS).status());
  }

  @Test
  @Timeout(10)
  void shouldNotWaitForRoomOnAnIoThread() throws Exception {
    start(testConfig().maxInFlightPerConnection(2).backpressureTimeout(Duration.ofSeconds(30)).build());
    server.onInvocation = (s, inv) -> {
      if (inv.getProcedure().equals("Answered")) {
        s.respond(FakeServer.success(inv.getClientHandle()));
      }
    };
    client.callAsync("Never");
    final CompletableFuture<Throwable> fromCallback = new CompletableFuture<>();

    client.callAsync((response, failure) -> {
      client.callAsync("Never");
      client.callAsync((r, e) -> fromCallback.complete(e), "Never");
    }, "Answered");

    assertInstanceOf(BackpressureException.class, fromCallback.get(5, TimeUnit.SECONDS));
  }

  @Test
  @Timeout(10)
  void shouldCloseTheConnectionOnAGarbageFrame() throws Exception {
    start(testConfig().reconnect(false).build());
    server.onInvocation = (s, inv) -> s.send(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01});

    final Throwable failure = failureOf(client.callAsync("Vote", 1L));

    final ConnectionLostException lost = assertInstanceOf(ConnectionLostException.class, failure);
    assertTrue(lost.getMessage().contains("malformed frame from the server"), lost.getMessage());
  }

  @Test
  @Timeout(10)
  void shouldCloseTheConnectionOnAMalformedResultTable() throws Exception {
    start(testConfig().reconnect(false).build());
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .addResults(com.google.protobuf.ByteString.copyFrom(new byte[] {9, 0, 0, 0, 1})));

    final Throwable failure = failureOf(client.callAsync("Vote", 1L));

    assertTrue(failure.getMessage().contains("malformed result table in the answer to Vote"), failure.getMessage());
  }

  @Test
  @Timeout(10)
  void shouldCloseTheConnectionOnAFrameLargerThanConfigured() throws Exception {
    start(testConfig().reconnect(false).maxResponseFrameBytes(4096).build());
    server.onInvocation = (s, inv) -> s.respond(FakeServer.success(inv.getClientHandle())
        .setMessage("x".repeat(10_000)));

    final Throwable failure = failureOf(client.callAsync("Vote", 1L));

    assertInstanceOf(ConnectionLostException.class, failure);
    assertTrue(failure.getMessage().contains("TooLongFrameException"), failure.getMessage());
  }

  @Test
  @Timeout(10)
  void shouldRejectAParameterOfAnUnsupportedTypeBeforeSending() throws Exception {
    start(testConfig().build());

    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.callAsync("Vote", 1L, new StringBuilder("x")));

    assertTrue(e.getMessage().startsWith("parameter 2 is a java.lang.StringBuilder"), e.getMessage());
    client.call("Marker");
    assertEquals("Marker", server.next().invocation().getProcedure());
    assertEquals(0, client.statistics().snapshot().total().calls() - 1);
  }

  @Test
  @Timeout(10)
  void shouldThrowTheServersMessageWhenTheLoginIsRefused() throws Exception {
    server = new FakeServer(LoginResponse.newBuilder().setStatus(LoginStatus.LOGIN_STATUS_BAD_VERSION)
        .setMessage("this server speaks protocol version 2 only").build());
    server.start(0);
    client = new PartitaClient(testConfig().build());

    final LoginRefusedException e = assertThrows(LoginRefusedException.class, () -> client.connect(server.address()));

    assertTrue(e.getMessage().contains("LOGIN_STATUS_BAD_VERSION: this server speaks protocol version 2 only"),
        e.getMessage());
    assertTrue(client.connectedServers().isEmpty());
  }

  @Test
  @Timeout(10)
  void shouldRefuseACallLargerThanTheServerAccepts() throws Exception {
    server = new FakeServer(FakeServer.loginResponse(0, 1, List.of(0), List.of()).toBuilder()
        .setMaxFrameBytes(1024).build());
    server.start(0);
    client = new PartitaClient(testConfig().build());
    client.connect(server.address());

    final Throwable failure = failureOf(client.callAsync("Big", new byte[2000]));

    final FrameTooLargeException e = assertInstanceOf(FrameTooLargeException.class, failure);
    assertTrue(e.getMessage().contains("accepts at most 1024"), e.getMessage());
    client.call("Small", new byte[100]);
    assertEquals("Small", server.next().invocation().getProcedure());
  }

  @Test
  @Timeout(10)
  void shouldFailFastWithoutAnyConnection() {
    client = new PartitaClient(testConfig().build());

    final NoConnectionsException e = assertThrows(NoConnectionsException.class, () -> client.call("Vote", 1L));

    assertTrue(e.getMessage().contains("call connect() first"), e.getMessage());
  }

  @Test
  @Timeout(10)
  void shouldReportAServerThatCannotBeReached() throws IOException {
    final int port;
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      port = s.getLocalPort();
    }
    client = new PartitaClient(testConfig().build());

    final PartitaClientException e = assertThrows(PartitaClientException.class,
        () -> client.connect("127.0.0.1:" + port));

    assertTrue(e.getMessage().startsWith("cannot connect to 127.0.0.1:" + port), e.getMessage());
  }

  @Test
  @Timeout(10)
  void shouldRejectAMalformedServerAddress() {
    client = new PartitaClient(testConfig().build());
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> client.connect("localhost:http"));
    assertTrue(e.getMessage().contains("port \"http\" is not a number"), e.getMessage());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
