package org.partita.server.http;

import org.partita.proto.ErrorCode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.security.PeerAddress;
import org.partita.server.security.Principal;
import org.partita.server.security.UserEntry;

/**
 * The call endpoint {@code /api/1.0/}: reads the call a GET or POST carries
 * ({@link ApiRequestParser}), runs it through the {@link Dispatcher}
 * ({@link PendingCall}: retried while the server refuses new work), and
 * answers 200 with the call's response as JSON. Malformed requests get 400
 * (415 for an unknown body type) and no call is made; while the server shuts
 * down every call is refused with 503. Thread-safe (immutable).
 */
final class ApiEndpoint {
  private final Dispatcher dispatcher;
  private final BooleanSupplier shuttingDown;
  private final Duration busyTimeout;
  /** Checks HTTP Basic credentials and tokens; null when security is off. */
  private final HttpAuthentication authentication;

  ApiEndpoint(Dispatcher dispatcher, BooleanSupplier shuttingDown, Duration busyTimeout) {
    this(dispatcher, shuttingDown, busyTimeout, null);
  }

  /** An endpoint that requires HTTP Basic credentials or a token checked by {@code authentication} (null: none). */
  ApiEndpoint(Dispatcher dispatcher, BooleanSupplier shuttingDown, Duration busyTimeout,
      HttpAuthentication authentication) {
    this.authentication = authentication;
    this.dispatcher = dispatcher;
    this.shuttingDown = shuttingDown;
    this.busyTimeout = busyTimeout;
  }

  /** Answers {@code request} through {@code sink}. REQUIRES: on {@code ctx}'s event loop. */
  void serve(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final HttpMethod method = request.method();
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.POST)) {
      sink.send(Replies.methodNotAllowed(ctx.alloc(), method.name(), HttpRouter.API_PATH + "/", "GET, POST"));
      return;
    }
    if (shuttingDown.getAsBoolean()) {
      sink.send(shuttingDownReply(ctx));
      return;
    }
    final ApiCall call;
    try {
      call = ApiRequestParser.parse(request);
    } catch (RequestException e) {
      sink.send(Replies.error(ctx.alloc(), e));
      return;
    }
    Principal caller = Principal.UNCHECKED;
    if (authentication != null) {
      final UserEntry user = authentication.user(request, ctx, sink, true);
      if (user == null) {
        return;
      }
      caller = user.principal(PeerAddress.of(ctx.channel().remoteAddress()));
    }
    new PendingCall(dispatcher, call, caller, ctx, sink, this, System.nanoTime() + busyTimeout.toNanos()).attempt();
  }

  /** 503: the server is shutting down; the connection is closed after it. */
  static Reply shuttingDownReply(ChannelHandlerContext ctx) {
    return Replies.error(ctx.alloc(), HttpResponseStatus.SERVICE_UNAVAILABLE, ErrorCode.ERROR_CODE_SHUTTING_DOWN,
        "the server is shutting down and accepts no new calls", true);
  }

  boolean isShuttingDown() {
    return shuttingDown.getAsBoolean();
  }

  Duration busyTimeout() {
    return busyTimeout;
  }
}
