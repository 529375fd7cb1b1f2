package org.partita.server.network;

import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.proto.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.Parameter;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.dispatch.ResponseHandler;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientProtocolServerTest {
  private final EventLoopGroup boss = Transports.eventLoopGroup(1, "test-accept");
  private final EventLoopGroup workers = Transports.eventLoopGroup(1, "test-network");
  private ClientProtocolServer server;
  private int port;

  /** Answers every call with one row echoing the procedure name and parameter count. */
  private static final Dispatcher ECHO = (invocation, handler) -> {
    final Object[] parameters;
    try {
      parameters = invocation.parameters();
    } catch (ServerException e) {
      handler.onResponse(ErrorTable.response(e));
      return true;
    }
    handler.onResponse(ClientResponse.success(List.of(new ResultTableBuilder()
        .column("PROCEDURE", ValueType.VARCHAR).column("PARAMETERS", ValueType.BIGINT)
        .row(invocation.procedure(), (long) parameters.length).build())));
    return true;
  };

  private static final LoginInfo IDENTITY = new LoginInfo() {
    @Override
    public LoginResponse successfulLogin(long connectionId) {
      return LoginResponse.newBuilder().setStatus(LoginStatus.LOGIN_STATUS_OK).setConnectionId(connectionId)
          .setProtocolVersion(1).setCatalogVersion(7).build();
    }

    @Override
    public long catalogVersion() {
      return 7;
    }

    @Override
    public long topologyVersion() {
      return 3;
    }
  };

  private void start(Dispatcher dispatcher, ConnectionLimits limits) throws InterruptedException {
    server = new ClientProtocolServer(dispatcher, IDENTITY, limits);
    port = server.start("127.0.0.1", 0, boss, workers);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stopAccepting();
      server.closeConnections();
    }
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void shouldAnswerLoginThenCallsWithTheirHandlesAndTables() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket s = new FrameSocket(port)) {
      final LoginResponse login = s.login(1);
      assertEquals(LoginStatus.LOGIN_STATUS_OK, login.getStatus());
      s.call(42, "Vote", 1L, "MA", 3L);
      final InvocationResponse r = s.receive().getResponse();
      assertEquals(42, r.getClientHandle());
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, r.getStatus());
      assertEquals(7, r.getCatalogVersion());
      assertTrue(r.getServerNanos() > 0);
      final ResultTable t = ResultTable.read(ByteBuffer.wrap(r.getResults(0).toByteArray()));
      assertTrue(t.advanceRow());
      assertEquals("Vote", t.getString(0));
      assertEquals(3, t.getLong(1));
    }
  }

  /** A table with {@code rows} rows of {@code width}-character strings, read from direct memory as sites hold results. */
  private static ResultTable directTable(int rows, int width) {
    final ResultTableBuilder b = new ResultTableBuilder().column("N", ValueType.BIGINT).column("S", ValueType.VARCHAR);
    for (int r = 0; r < rows; r++) {
      b.row((long) r, String.valueOf((char) ('a' + r % 26)).repeat(width));
    }
    final ByteBuffer heap = b.build().bytes();
    final ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining()).put(heap).flip();
    return ResultTable.read(direct);
  }

  @Test
  void shouldSendSmallAndLargeTablesByteForByteAcrossOneFlush() throws Exception {
    final ResultTable small = directTable(1, 3);
    final ResultTable large = directTable(40, 500);
    assertTrue(large.byteSize() > OutboundFrames.COPY_LIMIT, "the large table must be gathered, not copied");
    start((invocation, handler) -> {
      final boolean big = invocation.procedure().equals("Big");
      handler.onResponse(ClientResponse.success(big ? List.of(small, large, small) : List.of(small)));
      return true;
    }, ConnectionLimits.defaults());
    try (FrameSocket s = new FrameSocket(port)) {
      s.login(1);
      for (int i = 0; i < 6; i++) {
        s.call(i, i % 2 == 0 ? "Big" : "Small");
      }
      for (int i = 0; i < 6; i++) {
        final InvocationResponse r = s.receive().getResponse();
        assertEquals(i, r.getClientHandle());
        final List<ResultTable> expected = i % 2 == 0 ? List.of(small, large, small) : List.of(small);
        assertEquals(expected.size(), r.getResultsCount());
        for (int t = 0; t < expected.size(); t++) {
          assertEquals(expected.get(t).bytes(), ByteBuffer.wrap(r.getResults(t).toByteArray()), "call " + i + " table " + t);
        }
      }
    }
  }

  @Test
  void shouldRefuseAnotherProtocolVersionAndClose() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket s = new FrameSocket(port)) {
      final LoginResponse login = s.login(99);
      assertEquals(LoginStatus.LOGIN_STATUS_BAD_VERSION, login.getStatus());
      assertTrue(login.getMessage().contains("99"), login.getMessage());
      assertTrue(s.closedByServer());
    }
  }

  @Test
  void shouldCloseAConnectionThatCallsBeforeLogin() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket s = new FrameSocket(port)) {
      s.call(1, "Vote");
      assertTrue(s.closedByServer());
    }
  }

  @Test
  void shouldCloseOnGarbageAndKeepServingOthers() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket good = FrameSocket.loggedIn(port); FrameSocket bad = FrameSocket.loggedIn(port)) {
      bad.sendRaw(new byte[] {0, 0, 0, 5, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      assertTrue(bad.closedByServer());
      good.call(1, "Still");
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, good.receive().getResponse().getStatus());
    }
  }

  @Test
  void shouldCloseOnAFrameOverTheLimit() throws Exception {
    start(ECHO, new ConnectionLimits(16, 1024));
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      s.sendRaw(new byte[] {0, 0x10, 0, 0});
      assertTrue(s.closedByServer());
    }
    try (FrameSocket again = FrameSocket.loggedIn(port)) {
      again.call(2, "Next");
      assertEquals(2, again.receive().getResponse().getClientHandle());
    }
  }

  @Test
  void shouldSurviveATruncatedFrameAndAnAbruptClose() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      s.sendRaw(new byte[] {0, 0, 1, 0, 1, 2, 3});
    }
    try (FrameSocket again = FrameSocket.loggedIn(port)) {
      again.call(3, "Next");
      assertEquals(3, again.receive().getResponse().getClientHandle());
    }
  }

  @Test
  void shouldRejectAMalformedDecimalParameterForThatCallOnly() throws Exception {
    start(ECHO, ConnectionLimits.defaults());
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      s.send(ClientMessage.newBuilder().setInvocation(Invocation.newBuilder().setClientHandle(5).setProcedure("P")
          .addParameters(Parameter.newBuilder().setDecimal("12x"))).build());
      final InvocationResponse r = s.receive().getResponse();
      assertEquals(CallStatus.CALL_STATUS_REJECTED, r.getStatus());
      assertEquals("BAD_PARAMETER", r.getErrorName());
      assertTrue(r.getMessage().contains("P parameter 1"), r.getMessage());
      s.send(ClientMessage.newBuilder().setInvocation(Invocation.newBuilder().setClientHandle(6).setProcedure("P")
          .addParameters(Parameter.newBuilder().setDecimal("1e999999999"))).build());
      final InvocationResponse huge = s.receive().getResponse();
      assertEquals("BAD_PARAMETER", huge.getErrorName());
      assertTrue(huge.getMessage().contains("out of range"), huge.getMessage());
      s.call(7, "P");
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, s.receive().getResponse().getStatus());
    }
  }

  @Test
  void shouldRetryCallsTheDispatcherRefusedInOrder() throws Exception {
    final AtomicInteger refusals = new AtomicInteger(50);
    final List<String> order = new ArrayList<>();
    start((invocation, handler) -> {
      if (refusals.getAndDecrement() > 0) {
        return false;
      }
      synchronized (order) {
        order.add(invocation.procedure());
      }
      return ECHO.dispatch(invocation, handler);
    }, ConnectionLimits.defaults());
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      for (int i = 0; i < 20; i++) {
        s.call(i, "P" + i);
      }
      for (int i = 0; i < 20; i++) {
        assertEquals(CallStatus.CALL_STATUS_SUCCESS, s.receive().getResponse().getStatus());
      }
    }
    for (int i = 0; i < 20; i++) {
      assertEquals("P" + i, order.get(i));
    }
  }

  @Test
  void shouldStopReadingAtTheInFlightLimitAndResumeWhenAnswered() throws Exception {
    final ConcurrentLinkedQueue<ResponseHandler> held = new ConcurrentLinkedQueue<>();
    start((invocation, handler) -> held.add(handler), new ConnectionLimits(4, 1 << 20));
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      for (int i = 0; i < 10; i++) {
        s.call(i, "Slow");
      }
      // Reads pause in the same event-loop turn that dispatched up to the limit, and nothing is
      // dispatched again before an answer: once paused, the number dispatched is final.
      waitUntil(() -> server.connections().get(0).readsPaused());
      assertEquals(4, held.size(), "the server must not dispatch past its in-flight limit");
      int answered = 0;
      while (answered < 10) {
        final ResponseHandler h = held.poll();
        if (h == null) {
          Thread.onSpinWait();
          continue;
        }
        h.onResponse(ClientResponse.success(List.of()));
        s.receive();
        answered++;
      }
      assertFalse(server.connections().get(0).readsPaused());
    }
  }

  @Test
  void shouldAnswerAcceptedCallsAndRejectNewOnesWhenShuttingDown() throws Exception {
    final ConcurrentLinkedQueue<ResponseHandler> held = new ConcurrentLinkedQueue<>();
    start((invocation, handler) -> held.add(handler), ConnectionLimits.defaults());
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      s.call(1, "Accepted");
      waitUntil(() -> held.size() == 1);
      server.stopAccepting();
      s.call(2, "Late");
      final InvocationResponse late = s.receive().getResponse();
      assertEquals(2, late.getClientHandle());
      assertEquals("SHUTTING_DOWN", late.getErrorName());
      assertFalse(server.awaitQuiet(50, TimeUnit.MILLISECONDS));
      held.poll().onResponse(ClientResponse.success(List.of()));
      final InvocationResponse accepted = s.receive().getResponse();
      assertEquals(1, accepted.getClientHandle());
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, accepted.getStatus());
      assertTrue(server.awaitQuiet(5, TimeUnit.SECONDS));
    }
  }

  @Test
  void shouldNotLoseWrittenAnswersWhenClosingOnAClientThatIsStillSending() throws Exception {
    final ConcurrentLinkedQueue<ResponseHandler> held = new ConcurrentLinkedQueue<>();
    start((invocation, handler) -> held.add(handler), new ConnectionLimits(4, 1 << 20));
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      for (int i = 0; i < 20_000; i++) {
        s.call(i, "Unread", "padding to fill the socket buffers of both sides");
      }
      waitUntil(() -> held.size() == 4);
      final long before = server.connections().get(0).bytesWritten();
      for (int i = 0; i < 4; i++) {
        held.poll().onResponse(ClientResponse.success(List.of()));
      }
      waitUntil(() -> server.connections().get(0).bytesWritten() >= before + 4 * 8);
      server.stopAccepting();
      server.closeConnections();
      for (int i = 0; i < 4; i++) {
        assertEquals(CallStatus.CALL_STATUS_SUCCESS, s.receive().getResponse().getStatus(), "answer " + i);
      }
    }
  }

  @Test
  void shouldForgetAClientThatLeavesWithCallsInFlight() throws Exception {
    final ConcurrentLinkedQueue<ResponseHandler> held = new ConcurrentLinkedQueue<>();
    start((invocation, handler) -> held.add(handler), ConnectionLimits.defaults());
    try (FrameSocket s = FrameSocket.loggedIn(port)) {
      s.call(1, "Slow");
      waitUntil(() -> held.size() == 1);
    }
    waitUntil(() -> server.connections().isEmpty());
    held.poll().onResponse(ClientResponse.failure(Status.GRACEFUL_FAILURE, ErrorCode.ERROR_CODE_SQL_ERROR, "late"));
    try (FrameSocket again = FrameSocket.loggedIn(port)) {
      assertEquals(1, server.connections().size());
    }
  }

  private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not reached in 10 s");
      }
      Thread.sleep(2);
    }
  }

}
