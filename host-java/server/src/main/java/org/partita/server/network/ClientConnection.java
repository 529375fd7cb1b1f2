package org.partita.server.network;

import org.partita.server.error.ErrorTable;
import org.partita.proto.ErrorCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import javax.net.ssl.SSLException;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.partita.client.ClientResponse;
import org.partita.client.proto.ClientMessage;
import org.partita.client.internal.Scram;
import org.partita.client.proto.LoginContinue;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.ProtocolVersion;
import org.partita.client.proto.ServerMessage;
import com.google.protobuf.ByteString;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.dispatch.RecordedResponseHandler;
import org.partita.server.security.AuditLog;
import org.partita.server.security.AuthenticationException;
import org.partita.server.security.Authenticator;
import org.partita.server.security.PeerAddress;
import org.partita.server.security.Principal;
import org.partita.server.security.ScramServerExchange;
import org.partita.server.stats.ConnectionSnapshot;
import org.partita.server.txn.ClientSessions;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.ResponseBytesConsumer;

/**
 * One client connection of the binary protocol (docs/wire-protocol.md):
 * login, then invocations handed to the {@link Dispatcher}, answers written
 * back in batches — every response finished since the last turn goes out in
 * one write and one flush.
 *
 * <p>Backpressure: at most {@code maxInFlight} calls of a connection are
 * dispatched and unanswered; further calls wait in order in {@code backlog},
 * as do calls the dispatcher refused (a full site queue), which are retried
 * from the event loop. The connection stops reading from its socket while
 * the backlog is not empty or the socket's outbound buffer is above its
 * high-water mark (the client is not reading its answers). Nothing received
 * is ever dropped; memory per connection stays bounded by maxInFlight
 * answers plus one socket read.
 *
 * <p>Thread model: the Netty handler methods and all fields not marked
 * otherwise are confined to the channel's event loop; responses arrive on
 * site threads through {@link #answer}, which only enqueues.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = Logger.getLogger(ClientConnection.class.getName());
  private static final long RETRY_DELAY_MICROS = 100;
  /** With security on: how long a connection may take to log in (TLS handshake included). */
  static final long LOGIN_TIMEOUT_MILLIS = 30_000;

  private final long id;
  private final Dispatcher dispatcher;
  private final LoginInfo identity;
  private final ConnectionLimits limits;
  private final ConnectionRegistry registry;
  private final long connectedAtMillis = System.currentTimeMillis();
  // Event loop: when the current read burst began (0: none). Every call of one burst counts as received then
  // (one clock read per burst, not per call; a call's server time is never understated).
  private long burstReceivedNanos;
  private Channel channel;
  private boolean loggedIn;
  private volatile String clientName = "";
  private volatile String remote = "?";
  // Decoded invocations not yet dispatched (in-flight limit reached or the
  // dispatcher refused: a full queue), oldest first.
  private final ArrayDeque<Call> backlog = new ArrayDeque<>();
  private boolean retryScheduled;
  // Any thread. Calls dispatched and not yet answered.
  private final AtomicInteger inFlight = new AtomicInteger();
  // Any thread. backlog.size(), readable off the event loop.
  private final AtomicInteger backlogSize = new AtomicInteger();
  private final AtomicLong callsReceived = new AtomicLong();
  private final AtomicLong bytesRead = new AtomicLong();
  private final AtomicLong bytesWritten = new AtomicLong();
  private volatile boolean readsPaused;
  private final MpscUnboundedXaddArrayQueue<Call> answers = new MpscUnboundedXaddArrayQueue<>(1024);
  private final AtomicBoolean flushScheduled = new AtomicBoolean();
  private final Runnable flushAnswers = this::flushAnswers;
  private final Runnable retryBacklog = this::retryBacklog;
  private final InvocationDecoder decoder;
  // Set by closeGracefully: reads are discarded until the client closes.
  private boolean draining;
  /** Checks logins; null when security is off (every login is accepted, calls run unchecked). */
  private final Authenticator authenticator;
  // The SCRAM exchange under way, or null before the client-first message.
  private ScramServerExchange exchange;
  // Set when a login failed: reads are discarded until the delayed refusal closes the connection.
  private boolean refusing;
  // Who the calls of this connection run as: set at login.
  private Principal principal = Principal.UNCHECKED;
  // The session the login named (0: none); its calls carry it once the login succeeds.
  private long clientSession;
  // Set at login: the client reads topology pushes (event loop; read by any thread).
  private volatile boolean acceptsTopologyPush;

  /**
   * One call from its arrival to its answer, one object all the way: it
   * waits in {@code backlog}, is the handler the dispatcher answers, then
   * waits in {@code answers} with its response until the next flush. The
   * response is set on the answering thread before the call is queued (the
   * queue publishes it to the event loop).
   */
  private final class Call extends RecordedResponseHandler implements ResponseBytesConsumer {
    private final Invocation invocation;
    private final long receivedNanos;
    private ClientResponse response;

    Call(Invocation invocation, long receivedNanos) {
      this.invocation = invocation;
      this.receivedNanos = receivedNanos;
    }

    /** The client's handle for the call. */
    long handle() {
      return invocation.clientSequence();
    }

    @Override
    protected void answered(ClientResponse r) {
      response = r;
      answer(this);
    }
  }

  ClientConnection(long id, Dispatcher dispatcher, LoginInfo identity, ConnectionLimits limits,
      ConnectionRegistry registry) {
    this(id, dispatcher, identity, limits, registry, null);
  }

  /** A connection whose logins {@code authenticator} checks (null: security off). */
  ClientConnection(long id, Dispatcher dispatcher, LoginInfo identity, ConnectionLimits limits,
      ConnectionRegistry registry, Authenticator authenticator) {
    this.authenticator = authenticator;
    this.id = id;
    this.dispatcher = dispatcher;
    this.identity = identity;
    this.limits = limits;
    this.registry = registry;
    this.decoder = new InvocationDecoder(id);
  }

  long id() {
    return id;
  }

  /** Calls received and not yet answered (dispatched or waiting to be). Any thread. */
  int unanswered() {
    return inFlight.get() + backlogSize.get();
  }

  ConnectionSnapshot snapshot() {
    return new ConnectionSnapshot(id, remote, clientName, connectedAtMillis, callsReceived.get(), unanswered(),
        bytesRead.get(), bytesWritten.get(), readsPaused);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    channel = ctx.channel();
    remote = hostAndPort(channel.remoteAddress());
    registry.opened(this);
    if (authenticator != null) {
      channel.eventLoop().schedule(this::requireLogin, LOGIN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }
    ctx.fireChannelActive();
  }

  /**
   * With security on, a connection that has not logged in after
   * {@link #LOGIN_TIMEOUT_MILLIS} is closed, so that connections that never
   * finish a login (or a TLS handshake) cannot pile up. Event loop.
   */
  private void requireLogin() {
    if (!loggedIn && channel.isActive()) {
      AuditLog.loginRefused(exchange == null ? "" : exchange.claimedName(), remote, "binary",
          "no login within " + LOGIN_TIMEOUT_MILLIS + " ms");
      channel.close();
    }
  }

  /** "127.0.0.1:5000", "[::1]:5000"; anything else as the address prints itself. */
  static String hostAndPort(SocketAddress address) {
    return PeerAddress.of(address);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    final int unanswered = unanswered();
    clearBacklog();
    registry.closed(this);
    LOG.info("connection " + id + " from " + remote + " closed" + (unanswered > 0
        ? " with " + unanswered + " call(s) unanswered (they still run; their answers are dropped)" : ""));
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    burstReceivedNanos = 0;
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    final ByteBuf frame = (ByteBuf) msg;
    if (draining || refusing) {
      frame.release();
      return;
    }
    try {
      bytesRead.addAndGet(frame.readableBytes() + 4L);
      if (loggedIn && InvocationDecoder.isInvocation(frame)) {
        invocation(decoder.decode(frame));
        return;
      }
      final ClientMessage message = LoginFrameReader.parse(frame);
      if (!loggedIn && exchange != null && message.getKindCase() == ClientMessage.KindCase.LOGIN_CONTINUE) {
        continueLogin(message.getLoginContinue());
      } else if (!loggedIn && exchange == null) {
        login(message);
      } else {
        throw new ProtocolException("expected an invocation after login, got " + message.getKindCase());
      }
    } catch (ProtocolException e) {
      closeForProtocolError(e.getMessage());
    } finally {
      frame.release();
    }
  }

  private void login(ClientMessage message) throws ProtocolException {
    if (message.getKindCase() != ClientMessage.KindCase.LOGIN) {
      throw new ProtocolException("the first frame must be a login, got " + message.getKindCase());
    }
    final LoginRequest request = message.getLogin();
    clientName = request.getClientName();
    clientSession = request.getClientSession();
    acceptsTopologyPush = request.getAcceptsTopologyPush();
    final LoginResponse answer;
    if (request.getProtocolVersion() != ProtocolVersion.PROTOCOL_VERSION_1_VALUE) {
      answer = refusal(LoginStatus.LOGIN_STATUS_BAD_VERSION, "protocol version " + request.getProtocolVersion()
          + " is not supported; this server speaks version " + ProtocolVersion.PROTOCOL_VERSION_1_VALUE);
    } else if (registry.shuttingDown()) {
      answer = refusal(LoginStatus.LOGIN_STATUS_SHUTTING_DOWN, "the server is shutting down");
    } else if (authenticator == null) {
      answer = identity.successfulLogin(id);
    } else if (request.getSaslMechanism().isEmpty()) {
      AuditLog.loginRefused("", remote, "binary", "no credentials");
      answer = refusal(LoginStatus.LOGIN_STATUS_AUTHENTICATION_REQUIRED, "this server requires a user and password"
          + " (SCRAM-SHA-256); give the client credentials (docs/security.md)");
    } else {
      startExchange(request);
      return;
    }
    sendLoginAnswer(answer);
  }

  private void sendLoginAnswer(LoginResponse answer) {
    final ByteBuf out = channel.alloc().buffer();
    ResponseWriter.writeMessage(out, ServerMessage.newBuilder().setLogin(answer).build());
    bytesWritten.addAndGet(out.readableBytes());
    if (answer.getStatus() == LoginStatus.LOGIN_STATUS_CONTINUE) {
      channel.writeAndFlush(out);
      return;
    }
    if (answer.getStatus() != LoginStatus.LOGIN_STATUS_OK) {
      LOG.warning("connection " + id + " from " + remote + ": login refused: " + answer.getMessage());
      channel.writeAndFlush(out).addListener(f -> channel.close());
      return;
    }
    loggedIn = true;
    if (clientSession != 0) {
      decoder.clientId(ClientSessions.id(principal.user(), clientSession));
    }
    channel.writeAndFlush(out);
    LOG.info("connection " + id + " from " + remote + " logged in" + (clientName.isEmpty() ? "" : " as " + clientName)
        + (principal.unchecked() ? "" : " (user " + principal.user() + ")"));
  }

  /** Answers a SCRAM client-first message with the server-first one. */
  private void startExchange(LoginRequest request) {
    exchange = authenticator.newExchange();
    if (!request.getSaslMechanism().equals(Scram.MECHANISM)) {
      refuseLater("unsupported mechanism '" + request.getSaslMechanism() + "'");
      return;
    }
    try {
      final String serverFirst = exchange.serverFirst(request.getSaslData().toByteArray());
      sendLoginAnswer(LoginResponse.newBuilder().setStatus(LoginStatus.LOGIN_STATUS_CONTINUE)
          .setProtocolVersion(ProtocolVersion.PROTOCOL_VERSION_1_VALUE)
          .setSaslData(ByteString.copyFromUtf8(serverFirst)).build());
    } catch (AuthenticationException e) {
      refuseLater(e.getMessage());
    }
  }

  /** Checks the SCRAM client-final message; logs the user in or refuses. */
  private void continueLogin(LoginContinue message) {
    final ScramServerExchange.Outcome outcome;
    try {
      outcome = exchange.finish(message.getSaslData().toByteArray());
    } catch (AuthenticationException e) {
      refuseLater(e.getMessage());
      return;
    }
    principal = outcome.user().principal(remote);
    AuditLog.loginAccepted(principal.user(), remote, "binary");
    sendLoginAnswer(identity.successfulLogin(id).toBuilder().setUser(principal.user())
        .setSaslData(ByteString.copyFromUtf8(outcome.serverFinal())).build());
  }

  /**
   * Refuses a login after {@link Authenticator#FAILED_LOGIN_DELAY_MILLIS},
   * saying only that authentication failed; the reason goes to the audit
   * log with the peer's address. Nothing read meanwhile is looked at.
   */
  private void refuseLater(String reason) {
    refusing = true;
    AuditLog.loginRefused(exchange == null ? "" : exchange.claimedName(), remote, "binary", reason);
    final LoginResponse answer = refusal(LoginStatus.LOGIN_STATUS_AUTHENTICATION_FAILED, "authentication failed");
    channel.eventLoop().schedule(() -> {
      if (channel.isActive()) {
        sendLoginAnswer(answer);
      }
    }, Authenticator.FAILED_LOGIN_DELAY_MILLIS, TimeUnit.MILLISECONDS);
  }

  private static LoginResponse refusal(LoginStatus status, String message) {
    return LoginResponse.newBuilder().setStatus(status).setMessage(message)
        .setProtocolVersion(ProtocolVersion.PROTOCOL_VERSION_1_VALUE).build();
  }

  private void invocation(Invocation invocation) {
    if (burstReceivedNanos == 0) {
      burstReceivedNanos = System.nanoTime();
    }
    final long received = burstReceivedNanos;
    callsReceived.incrementAndGet();
    backlog.add(new Call(invocation, received));
    backlogSize.incrementAndGet();
    drainBacklog();
    updateReading();
  }

  /**
   * Dispatches waiting calls in order while the in-flight limit allows;
   * when the dispatcher refuses one (a full queue), retries later.
   */
  private void drainBacklog() {
    while (!backlog.isEmpty() && inFlight.get() < limits.maxInFlight()) {
      inFlight.incrementAndGet();
      if (!dispatch(backlog.peek())) {
        inFlight.decrementAndGet();
        scheduleRetry();
        return;
      }
      backlog.poll();
      backlogSize.decrementAndGet();
    }
  }

  private boolean dispatch(Call call) {
    if (registry.shuttingDown()) {
      call.onResponse(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN,
          "the server is shutting down and accepts no new calls"));
      return true;
    }
    try {
      return dispatcher.dispatch(call.invocation, principal, call);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "connection " + id + ": dispatching call " + call.handle() + " failed", e);
      // A fresh Call: should the dispatcher answer the first one after all, the two answers stay apart.
      new Call(call.invocation, call.receivedNanos).onResponse(ErrorTable.response(
          ErrorCode.ERROR_CODE_INTERNAL, "the server failed to dispatch " + call.invocation.procedure() + ": " + e));
      return true;
    }
  }

  private void scheduleRetry() {
    if (!retryScheduled) {
      retryScheduled = true;
      channel.eventLoop().schedule(retryBacklog, RETRY_DELAY_MICROS, TimeUnit.MICROSECONDS);
    }
  }

  private void retryBacklog() {
    retryScheduled = false;
    if (!channel.isActive()) {
      clearBacklog();
      return;
    }
    drainBacklog();
    updateReading();
  }

  private void clearBacklog() {
    backlogSize.addAndGet(-backlog.size());
    backlog.clear();
  }

  /** Queues an answered call and makes sure a flush runs on the event loop. Any thread. */
  private void answer(Call answered) {
    answers.offer(answered);
    if (flushScheduled.compareAndSet(false, true)) {
      channel.eventLoop().execute(flushAnswers);
    }
  }

  /** Writes every queued answer in one buffer with one flush. Event loop. */
  private void flushAnswers() {
    flushScheduled.set(false);
    if (answers.isEmpty()) {
      return;
    }
    final boolean open = channel.isActive();
    final OutboundFrames frames = open ? new OutboundFrames(channel.alloc()) : null;
    final long catalogVersion = identity.catalogVersion();
    final long topologyVersion = identity.topologyVersion();
    final long sentNanos = System.nanoTime();
    int written = 0;
    boolean intact = true;
    for (Call a = answers.relaxedPoll(); a != null; a = answers.relaxedPoll()) {
      written++;
      if (open && intact) {
        intact = writeAnswer(frames, a, sentNanos, catalogVersion, topologyVersion);
      }
    }
    inFlight.addAndGet(-written);
    if (!open) {
      return;
    }
    if (!intact) {
      frames.discard();
      LOG.severe("connection " + id + " from " + remote + ": an answer was left half written (a server bug,"
          + " logged above); closing the connection rather than sending a malformed frame");
      clearBacklog();
      channel.close();
      return;
    }
    final ByteBuf out = frames.finish();
    bytesWritten.addAndGet(out.readableBytes());
    channel.writeAndFlush(out, channel.voidPromise());
    drainBacklog();
    updateReading();
  }

  /**
   * Appends one answer, sent at {@code sentNanos} (one clock read per
   * flush); an answer that cannot be encoded is answered with INTERNAL
   * instead. Returns false iff a frame was left half written (a
   * bug: the connection must close).
   */
  private boolean writeAnswer(OutboundFrames frames, Call a, long sentNanos, long catalogVersion,
      long topologyVersion) {
    final int before = frames.size();
    try {
      ResponseWriter.write(frames, a.handle(), a.response, sentNanos - a.receivedNanos, catalogVersion,
          topologyVersion);
      return true;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "connection " + id + ": could not encode the answer to call " + a.handle(), e);
      if (frames.size() != before) {
        return false;
      }
      ResponseWriter.write(frames, a.handle(), ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL,
          "the server could not encode the response: " + e), 0, catalogVersion, topologyVersion);
      return true;
    }
  }

  /**
   * Ends the connection without losing answers already written: flushes,
   * half-closes (FIN after the last answer), then reads and discards what
   * the client still sends until it closes its side or {@code timeoutMillis}
   * pass. Closing outright while the client's calls sit unread in the
   * socket would send a reset, and a reset makes the client's kernel drop
   * answers it has received but the client has not read yet. Event loop.
   */
  /** {@link #closeGracefully} on this connection's event loop. Any thread. */
  /**
   * Sends {@code push} (a new topology) on this connection if the client
   * asked for pushes at login; returns whether it was queued. Any thread.
   */
  boolean pushTopology(ServerMessage push) {
    if (!acceptsTopologyPush || channel == null) {
      return false;
    }
    channel.eventLoop().execute(() -> {
      if (loggedIn && !draining && channel.isActive()) {
        final ByteBuf out = channel.alloc().buffer();
        ResponseWriter.writeMessage(out, push);
        bytesWritten.addAndGet(out.readableBytes());
        channel.writeAndFlush(out, channel.voidPromise());
      }
    });
    return true;
  }

  void closeGracefullyLater(long timeoutMillis) {
    channel.eventLoop().execute(() -> closeGracefully(timeoutMillis));
  }

  private void closeGracefully(long timeoutMillis) {
    draining = true;
    clearBacklog();
    channel.config().setAutoRead(true);
    channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written -> {
      if (channel instanceof DuplexChannel duplex && channel.isActive()) {
        duplex.shutdownOutput();
        channel.eventLoop().schedule(() -> {
          channel.close();
        }, timeoutMillis, TimeUnit.MILLISECONDS);
      } else {
        channel.close();
      }
    });
  }

  /** Reads iff nothing holds it back (see the class comment). Event loop. */
  private void updateReading() {
    if (draining) {
      return;
    }
    final boolean read = backlog.isEmpty() && inFlight.get() < limits.maxInFlight() && channel.isWritable();
    if (read == channel.config().isAutoRead()) {
      return;
    }
    readsPaused = !read;
    channel.config().setAutoRead(read);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    updateReading();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof TooLongFrameException) {
      closeForProtocolError("frame larger than the limit of " + limits.maxFrameBytes() + " bytes");
    } else if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
      final Throwable tls = cause instanceof SSLException ? cause : cause.getCause();
      LOG.warning("connection " + id + " from " + remote + ": TLS failed (" + tls.getMessage() + "); closing");
      ctx.close();
    } else if (cause instanceof IOException) {
      LOG.fine("connection " + id + " from " + remote + ": " + cause.getMessage());
      ctx.close();
    } else {
      LOG.log(Level.WARNING, "connection " + id + " from " + remote + ": unexpected error; closing", cause);
      ctx.close();
    }
  }

  private void closeForProtocolError(String why) {
    LOG.warning("connection " + id + " from " + remote + ": protocol error: " + why + "; closing");
    clearBacklog();
    channel.close();
  }
}
