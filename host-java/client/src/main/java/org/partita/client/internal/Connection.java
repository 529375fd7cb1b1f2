package org.partita.client.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.LoginRefusedException;
import org.partita.client.PartitaClientException;
import org.partita.client.ResultFormatException;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginContinue;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.ProtocolVersion;
import org.partita.client.proto.ServerMessage;
import org.partita.proto.ErrorCode;

/**
 * The client's one connection to one server, across reconnections: the TCP
 * channel, the login, the calls waiting to be written and the calls in
 * flight.
 *
 * <p>Thread model: calls arrive from any thread through {@link #submit},
 * which appends them to a lock-free queue and, when the queue was idle,
 * schedules one flush task on the connection's event loop; the task encodes
 * every queued call into one buffer and writes and flushes it once. All
 * other state (the in-flight map, the timeout sweep every 10 ms, reading
 * answers, reconnecting) is confined to that one event loop, which every
 * channel of this connection uses.
 */
public final class Connection {
  private static final Logger LOG = Logger.getLogger(Connection.class.getName());
  private static final long SWEEP_MILLIS = 10;
  /** A batch is written once it holds this many bytes; the flush comes after the last batch. */
  private static final int BATCH_BYTES = 1 << 20;

  /** Where the connection is in its life. */
  enum State { CONNECTING, UP, DOWN, CLOSED }

  private final ServerAddress address;
  private final EventLoop loop;
  private final Transport transport;
  private final ClientConfig config;
  private final ConnectionListener listener;
  private final Semaphore permits;
  private final ConcurrentLinkedQueue<PendingCall> outbound = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean flushScheduled = new AtomicBoolean();
  private final Runnable flushTask = this::flush;
  private final CompletableFuture<LoginResponse> firstLogin = new CompletableFuture<>();
  // Confined to the event loop.
  private final InFlightCalls inFlight = new InFlightCalls();
  private final ArrayList<PendingCall> batch = new ArrayList<>();
  private final ScheduledFuture<?> sweep;
  private long backoffNanos;
  private int attempts;
  /** The reconnection waiting for its backoff, or null. */
  private ScheduledFuture<?> pendingDial;
  /** When the last dial began (event loop): {@link #reconnectNow} dials at most once per {@link #MIN_KICK_NANOS}. */
  private long lastDialNanos;
  /** The shortest time between two dials {@link #reconnectNow} makes (each NOT_LEADER answer may ask for one). */
  private static final long MIN_KICK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /** Run once when the connection is next up, each at most once (see {@link #onceUp}). */
  private final ArrayList<Runnable> upWaiters = new ArrayList<>();
  private String downReason;
  private volatile State state = State.CONNECTING;
  private volatile Channel channel;
  private volatile boolean loggedInOnce;
  private volatile int hostId = -1;
  private volatile int maxFrameBytes = Integer.MAX_VALUE;
  /** TLS for every channel, or null for plain TCP. */
  private final SslContext tls;
  // The SCRAM exchange of the channel logging in, or null (event loop).
  private ScramClient scram;
  private boolean scramContinued;

  public Connection(ServerAddress address, Transport transport, ClientConfig config, ConnectionListener listener) {
    this(address, transport, config, listener, null);
  }

  /** A connection using {@code tls} (made by {@link ClientTls#context}) for every channel, or plain TCP when null. */
  public Connection(ServerAddress address, Transport transport, ClientConfig config, ConnectionListener listener,
      SslContext tls) {
    this.tls = tls;
    this.address = address;
    this.loop = transport.nextLoop();
    this.transport = transport;
    this.config = config;
    this.listener = listener;
    this.permits = new Semaphore(config.maxInFlightPerConnection());
    this.sweep = loop.scheduleAtFixedRate(this::sweepTimeouts, SWEEP_MILLIS, SWEEP_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Opens the connection and logs in; the future completes with the login answer or fails with why. */
  public CompletableFuture<LoginResponse> open() {
    loop.execute(this::dial);
    return firstLogin;
  }

  public ServerAddress address() {
    return address;
  }

  public boolean isUp() {
    return state == State.UP;
  }

  /** The host id the server gave at the last login; -1 before it. */
  public int hostId() {
    return hostId;
  }

  /** The largest ClientMessage the server accepts. */
  public int maxFrameBytes() {
    return maxFrameBytes;
  }

  /**
   * Takes room for one call, waiting up to {@code timeoutNanos} — but never
   * on one of the client's I/O threads (a call made from a callback): those
   * are the threads that make room. Returns true iff room was taken; the
   * call's completion gives it back.
   */
  public boolean acquirePermit(long timeoutNanos) throws InterruptedException {
    if (permits.tryAcquire()) {
      return true;
    }
    return timeoutNanos > 0 && !transport.inIoThread() && permits.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  void releasePermit() {
    permits.release();
  }

  /** Hands {@code call} (already holding a permit) to this connection. Any thread. */
  public void submit(PendingCall call) {
    call.handOver(this, System.nanoTime());
    outbound.offer(call);
    if (flushScheduled.compareAndSet(false, true)) {
      try {
        loop.execute(flushTask);
      } catch (RejectedExecutionException e) {
        failQueued("the client is closed");
      }
    }
  }

  /** Closes for good: calls in flight or queued fail with ConnectionLostException. Any thread. */
  public CompletableFuture<Void> close() {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    try {
      loop.execute(() -> {
        closeOnLoop();
        done.complete(null);
      });
    } catch (RejectedExecutionException e) {
      state = State.CLOSED;
      failQueued("the client is closed");
      done.complete(null);
    }
    return done;
  }

  private void closeOnLoop() {
    state = State.CLOSED;
    sweep.cancel(false);
    failInFlight("the client was closed");
    failQueued("the client was closed");
    final Channel ch = channel;
    if (ch != null) {
      ch.close();
    }
    firstLogin.completeExceptionally(new PartitaClientException("connection to " + address + " was closed"));
  }

  // ---- connecting and logging in (event loop) ----

  private void dial() {
    if (state == State.CLOSED) {
      return;
    }
    lastDialNanos = System.nanoTime();
    state = State.CONNECTING;
    downReason = null;
    new Bootstrap().group(loop).channel(transport.channelClass())
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, config.connectTimeout().toMillis()))
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            if (tls != null) {
              ch.pipeline().addLast("tls", ClientTls.handler(tls, ch, address.host(), address.port(), config));
            }
            ch.pipeline().addLast(new LengthFieldBasedFrameDecoder(config.maxResponseFrameBytes(), 0, 4, 0, 4),
                new Handler());
          }
        })
        .connect(address.host(), address.port())
        .addListener((ChannelFuture f) -> {
          if (!f.isSuccess()) {
            dialFailed(f.cause());
          }
        });
  }

  private void dialFailed(Throwable cause) {
    final String why = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    if (!loggedInOnce) {
      state = State.DOWN;
      firstLogin.completeExceptionally(new PartitaClientException("cannot connect to " + address + ": " + why, cause));
      return;
    }
    if (state != State.CLOSED) {
      state = State.DOWN;
      LOG.info("could not reconnect to " + address + ": " + why);
      scheduleReconnect();
    }
  }

  private void scheduleReconnect() {
    final long initial = config.reconnectInitialBackoff().toNanos();
    backoffNanos = backoffNanos == 0 ? initial : Math.min(backoffNanos * 2, config.reconnectMaxBackoff().toNanos());
    attempts++;
    LOG.info("reconnecting to " + address + " in " + TimeUnit.NANOSECONDS.toMillis(backoffNanos) + " ms (attempt "
        + attempts + ")");
    pendingDial = loop.schedule(this::dial, backoffNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * A reconnection waiting for its backoff dials now instead, its backoff
   * starting over: the cluster's newest map names this host as serving
   * (a host that came back). Does nothing to a connection that is up,
   * connecting or closed. Any thread.
   */
  public void reconnectNow() {
    try {
      loop.execute(() -> {
        final ScheduledFuture<?> waiting = pendingDial;
        if (state == State.DOWN && waiting != null && !waiting.isDone()
            && System.nanoTime() - lastDialNanos >= MIN_KICK_NANOS && waiting.cancel(false)) {
          pendingDial = null;
          backoffNanos = 0;
          dial();
        }
      });
    } catch (RejectedExecutionException e) {
      // The client is closing.
    }
  }

  /**
   * Runs {@code action} once: as soon as this connection is up (at once if it
   * is), or after {@code maxNanos} if it is not by then. On the event loop;
   * {@code action} must not block.
   */
  public void onceUp(Runnable action, long maxNanos) {
    final AtomicBoolean ran = new AtomicBoolean();
    final Runnable once = () -> {
      if (ran.compareAndSet(false, true)) {
        action.run();
      }
    };
    try {
      loop.execute(() -> {
        if (state == State.UP) {
          once.run();
          return;
        }
        upWaiters.add(once);
        loop.schedule(once, maxNanos, TimeUnit.NANOSECONDS);
      });
    } catch (RejectedExecutionException e) {
      once.run();
    }
  }

  private void sendLogin(ChannelHandlerContext ctx) {
    final LoginRequest.Builder request = LoginRequest.newBuilder()
        .setProtocolVersion(ProtocolVersion.PROTOCOL_VERSION_1_VALUE).setClientName(config.clientName())
        .setClientSession(listener.clientSession()).setAcceptsTopologyPush(true);
    scram = null;
    scramContinued = false;
    if (config.user() != null) {
      scram = new ScramClient(config.user(), config.password());
      request.setSaslMechanism(Scram.MECHANISM).setSaslData(ByteString.copyFromUtf8(scram.clientFirst()));
    }
    writeMessage(ctx.channel(), ClientMessage.newBuilder().setLogin(request).build());
    final Channel ch = ctx.channel();
    loop.schedule(() -> {
      if (ch.isActive() && ch == channel && state == State.CONNECTING) {
        closeWith(ch, "no login answer within " + config.connectTimeout().toMillis() + " ms", null);
      }
    }, config.connectTimeout().toNanos(), TimeUnit.NANOSECONDS);
  }

  private void writeMessage(Channel ch, ClientMessage message) {
    final byte[] bytes = message.toByteArray();
    final ByteBuf frame = ch.alloc().buffer(CallEncoder.LENGTH_PREFIX_BYTES + bytes.length);
    frame.writeInt(bytes.length).writeBytes(bytes);
    ch.writeAndFlush(frame, ch.voidPromise());
  }

  /** Answers the server-first message of a SCRAM login; returns false iff the login failed (closed). */
  private boolean continueLogin(Channel ch, LoginResponse login) {
    if (scram == null || scramContinued) {
      refuse(ch, "server " + address + " sent an unexpected authentication step");
      return false;
    }
    scramContinued = true;
    final String clientFinal;
    try {
      clientFinal = scram.clientFinal(login.getSaslData().toString(StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      refuse(ch, "server " + address + " sent a bad authentication step: " + e.getMessage());
      return false;
    }
    writeMessage(ch, ClientMessage.newBuilder().setLoginContinue(LoginContinue.newBuilder()
        .setSaslData(ByteString.copyFromUtf8(clientFinal))).build());
    return true;
  }

  private void refuse(Channel ch, String why) {
    firstLogin.completeExceptionally(new LoginRefusedException(why));
    closeWith(ch, why, null);
  }

  private static String refusal(LoginResponse login) {
    switch (login.getStatus()) {
      case LOGIN_STATUS_AUTHENTICATION_REQUIRED:
        return "authentication required: " + login.getMessage();
      case LOGIN_STATUS_AUTHENTICATION_FAILED:
        return "authentication failed (the user name or the password is wrong)";
      default:
        return login.getStatus() + (login.getMessage().isEmpty() ? "" : ": " + login.getMessage());
    }
  }

  private void loggedIn(Channel ch, LoginResponse login) {
    if (login.getStatus() != LoginStatus.LOGIN_STATUS_OK) {
      refuse(ch, "server " + address + " refused the login: " + refusal(login));
      return;
    }
    if (scramContinued && !scram.verifyServerFinal(login.getSaslData().toString(StandardCharsets.UTF_8))) {
      refuse(ch, "server " + address + " did not prove it knows user " + config.user()
          + "'s keys (wrong SCRAM server signature); not trusting it");
      return;
    }
    hostId = login.getHostId();
    maxFrameBytes = login.getMaxFrameBytes() == 0 ? Integer.MAX_VALUE : login.getMaxFrameBytes();
    if (loggedInOnce) {
      LOG.info("reconnected to " + address + " (host " + hostId + ") after " + attempts + " attempt(s)");
    }
    backoffNanos = 0;
    attempts = 0;
    loggedInOnce = true;
    state = State.UP;
    listener.loggedIn(this, login);
    firstLogin.complete(login);
    final ArrayList<Runnable> waiting = new ArrayList<>(upWaiters);
    upWaiters.clear();
    waiting.forEach(Runnable::run);
  }

  // ---- the channel going down (event loop) ----

  /** Closes {@code ch}, recording why (the first reason given wins) for the calls it fails. */
  private void closeWith(Channel ch, String reason, Throwable cause) {
    if (ch == channel && downReason == null) {
      downReason = reason;
      if (cause != null) {
        LOG.log(Level.FINE, "closing connection to " + address + ": " + reason, cause);
      }
    }
    ch.close();
  }

  private void channelDown(Channel ch) {
    if (ch != channel) {
      return;
    }
    channel = null;
    final String reason = downReason != null ? downReason : "the server closed the connection";
    failInFlight(reason);
    failQueued(reason);
    if (state == State.CLOSED) {
      return;
    }
    final boolean wasUp = state == State.UP;
    state = State.DOWN;
    if (!loggedInOnce) {
      firstLogin.completeExceptionally(new PartitaClientException("connection to " + address
          + " closed before login: " + reason + (tls == null && downReason == null
              ? " (a server that requires TLS closes plaintext connections: see ClientConfig.Builder.tls)" : "")));
      return;
    }
    if (wasUp) {
      LOG.warning("connection to " + address + " lost: " + reason);
      listener.wentDown(this);
    } else {
      LOG.info("connection to " + address + " closed before login: " + reason);
    }
    if (config.reconnect()) {
      scheduleReconnect();
    }
  }

  private void failInFlight(String reason) {
    batch.addAll(inFlight.values());
    inFlight.clear();
    for (PendingCall call : batch) {
      final String lost = "connection to " + address + " lost with the call to " + call.procedure + " in flight: "
          + reason;
      if (listener.outcomeUnknown(call, lost)) {
        continue;
      }
      if (call.unknownReason() != null) {
        call.unknown(System.nanoTime());
        continue;
      }
      call.fail(new ConnectionLostException(lost), CallStats.Outcome.CONNECTION_LOST);
    }
    batch.clear();
  }

  /** Fails every call not yet written. Any thread (the queue is multi-consumer). */
  private void failQueued(String reason) {
    PendingCall call;
    while ((call = outbound.poll()) != null) {
      final String lost = "connection to " + address + " lost before the call to " + call.procedure + " was sent: "
          + reason;
      // A call sent again because its outcome was unknown stays unknown: its first sending may have run.
      if (call.unknownReason() != null) {
        if (!listener.outcomeUnknown(call, call.unknownReason())) {
          call.unknown(System.nanoTime());
        }
        continue;
      }
      call.fail(new ConnectionLostException(lost), CallStats.Outcome.CONNECTION_LOST);
    }
  }

  // ---- writing calls (event loop) ----

  private void flush() {
    flushScheduled.set(false);
    final Channel ch = channel;
    if (state != State.UP || ch == null || !ch.isActive()) {
      failQueued(state == State.CLOSED ? "the client was closed" : "the connection is down");
      return;
    }
    boolean wrote = false;
    while (!outbound.isEmpty() && ch.isActive()) {
      wrote |= writeBatch(ch);
    }
    if (wrote) {
      ch.flush();
    }
  }

  /** Encodes queued calls, up to about BATCH_BYTES, into one buffer and writes it. */
  private boolean writeBatch(Channel ch) {
    int bytes = 0;
    PendingCall call;
    while (bytes < BATCH_BYTES && (call = outbound.poll()) != null) {
      batch.add(call);
      inFlight.put(call);
      bytes += call.frameBytes();
    }
    if (batch.isEmpty()) {
      return false;
    }
    final ByteBuf buf = ch.alloc().directBuffer(bytes);
    try {
      final CodedOutputStream out = CodedOutputStream.newInstance(buf.nioBuffer(0, bytes));
      for (PendingCall c : batch) {
        CallEncoder.writeFrame(out, c.handle, c.procedure, c.parameters, c.routedPlusOne, c.serverTimeoutMillis,
            c.invocationSize);
      }
      out.flush();
      out.checkNoSpaceLeft();
      buf.writerIndex(bytes);
    } catch (IOException | RuntimeException e) {
      buf.release();
      closeWith(ch, "internal error encoding calls: " + e, e);
      return false;
    } finally {
      batch.clear();
    }
    ch.write(buf, ch.voidPromise());
    return true;
  }

  // ---- timeouts and answers (event loop) ----

  private void sweepTimeouts() {
    if (inFlight.isEmpty()) {
      return;
    }
    final long now = System.nanoTime();
    for (PendingCall call : inFlight.values()) {
      if (now - call.deadlineNanos >= 0) {
        batch.add(call);
      }
    }
    for (PendingCall call : batch) {
      inFlight.remove(call.handle);
      if (call.unknownReason() != null) {
        call.unknown(now);
        continue;
      }
      call.fail(new CallTimeoutException(call.procedure, call.timeout()), CallStats.Outcome.TIMEOUT);
    }
    batch.clear();
  }

  private void answered(Channel ch, InvocationResponse r) {
    answered(ch, r.getClientHandle(), r.getErrorCode(), r.getCatalogVersion(), r.getTopologyVersion(),
        () -> Responses.toClientResponse(r));
  }

  /** Makes the answer's ClientResponse; throws ResultFormatException for a malformed table. */
  @FunctionalInterface
  private interface AnswerReader {
    ClientResponse read();
  }

  private void answered(Channel ch, long handle, int errorCode, long catalogVersion, long topologyVersion,
      AnswerReader reader) {
    final PendingCall call = inFlight.remove(handle);
    if (call == null) {
      listener.lateResponse();
      return;
    }
    final ClientResponse response;
    try {
      response = reader.read();
    } catch (ResultFormatException e) {
      inFlight.put(call);
      closeWith(ch, "malformed result table in the answer to " + call.procedure + ": " + e.getMessage(), null);
      return;
    }
    listener.catalogVersionSeen(catalogVersion);
    listener.topologyVersionSeen(topologyVersion);
    if (errorCode == ErrorCode.ERROR_CODE_NOT_LEADER_VALUE && listener.notLeader(call, topologyVersion, response)) {
      return;
    }
    if (errorCode == ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN_VALUE
        && listener.outcomeUnknown(call, "the server at " + address + " answered OUTCOME_UNKNOWN: "
            + response.message())) {
      return;
    }
    call.answered(response, System.nanoTime());
  }

  private static String describe(Throwable cause) {
    return cause.getMessage() == null ? cause.toString() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
  }

  /** Reads the frames of one channel. */
  private final class Handler extends ChannelInboundHandlerAdapter {
    private boolean loggedIn;
    private final AnswerDecoder answers = new AnswerDecoder();
    private final AnswerReader decodedAnswer = answers::response;  // made once, not per answer

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      channel = ctx.channel();
      if (state == State.CLOSED) {
        ctx.close();
        return;
      }
      sendLogin(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      final ByteBuf frame = (ByteBuf) msg;
      final ServerMessage message;
      try {
        if (loggedIn && answers.decode(frame)) {
          // The answers' own path: no generated parser (AnswerDecoder).
          answered(ctx.channel(), answers.clientHandle, answers.errorCodeNumber, answers.catalogVersion,
              answers.topologyVersion, decodedAnswer);
          return;
        }
        message = ServerMessage.parseFrom(frame.nioBuffer());
      } catch (InvalidProtocolBufferException | AnswerDecoder.MalformedFrameException e) {
        closeWith(ctx.channel(), "malformed frame from the server (" + frame.readableBytes() + " bytes): "
            + e.getMessage(), null);
        return;
      } finally {
        frame.release();
      }
      read(ctx.channel(), message);
    }

    private void read(Channel ch, ServerMessage message) {
      if (!loggedIn && message.getKindCase() == ServerMessage.KindCase.LOGIN
          && message.getLogin().getStatus() == LoginStatus.LOGIN_STATUS_CONTINUE) {
        continueLogin(ch, message.getLogin());
      } else if (!loggedIn && message.getKindCase() == ServerMessage.KindCase.LOGIN) {
        loggedIn = true;
        loggedIn(ch, message.getLogin());
      } else if (loggedIn && message.getKindCase() == ServerMessage.KindCase.RESPONSE) {
        answered(ch, message.getResponse());
      } else if (loggedIn && message.getKindCase() == ServerMessage.KindCase.TOPOLOGY_PUSH) {
        listener.topologyPushed(message.getTopologyPush().getTopology());
      } else if (loggedIn && message.getKindCase() == ServerMessage.KindCase.KIND_NOT_SET) {
        LOG.fine(() -> "ignoring a server message of a kind this client does not know, from " + address);
      } else {
        closeWith(ch, "unexpected " + message.getKindCase() + " message from the server"
            + (loggedIn ? " after login" : " before the login answer"), null);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      channelDown(ctx.channel());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      closeWith(ctx.channel(), describe(cause), cause);
    }
  }
}
