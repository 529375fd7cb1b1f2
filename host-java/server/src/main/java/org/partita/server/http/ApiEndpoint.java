package org.partita.server.http;

import org.partita.proto.ErrorCode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.security.AuditLog;
import org.partita.server.security.AuthenticationException;
import org.partita.server.security.Authenticator;
import org.partita.server.security.PeerAddress;
import org.partita.server.security.Principal;

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
  /** Checks HTTP Basic credentials; null when security is off. */
  private final Authenticator authenticator;

  ApiEndpoint(Dispatcher dispatcher, BooleanSupplier shuttingDown, Duration busyTimeout) {
    this(dispatcher, shuttingDown, busyTimeout, null);
  }

  /** An endpoint that requires HTTP Basic credentials checked by {@code authenticator} (null: none). */
  ApiEndpoint(Dispatcher dispatcher, BooleanSupplier shuttingDown, Duration busyTimeout, Authenticator authenticator) {
    this.authenticator = authenticator;
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
    final Principal caller = authenticator == null ? Principal.UNCHECKED : authenticate(request, ctx, sink);
    if (caller == null) {
      return;
    }
    new PendingCall(dispatcher, call, caller, ctx, sink, this, System.nanoTime() + busyTimeout.toNanos()).attempt();
  }

  /**
   * The caller of a request with HTTP Basic credentials, or null when it has
   * none (answered 401 at once) or wrong ones (answered 401 after the failed
   * login delay, logged with the peer; the answer never says which half was
   * wrong).
   */
  private Principal authenticate(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final String peer = PeerAddress.of(ctx.channel().remoteAddress());
    final String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      AuditLog.loginRefused("", peer, "http", "no Basic credentials");
      sink.send(unauthorized(ctx, "this server requires a user and password (HTTP Basic, over TLS)"));
      return null;
    }
    String user = "";
    try {
      final String pair = new String(Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
      final int colon = pair.indexOf(':');
      if (colon < 0) {
        throw new AuthenticationException("Basic credentials without ':'");
      }
      user = pair.substring(0, colon);
      final Principal caller = authenticator.verifyPassword(user, pair.substring(colon + 1)).principal(peer);
      AuditLog.loginAccepted(caller.user(), peer, "http");
      return caller;
    } catch (AuthenticationException | IllegalArgumentException e) {
      AuditLog.loginRefused(user, peer, "http", e.getMessage());
      ctx.executor().schedule(() -> sink.send(unauthorized(ctx, "authentication failed")),
          Authenticator.FAILED_LOGIN_DELAY_MILLIS, TimeUnit.MILLISECONDS);
      return null;
    }
  }

  private static Reply unauthorized(ChannelHandlerContext ctx, String message) {
    return Replies.error(ctx.alloc(), HttpResponseStatus.UNAUTHORIZED, ErrorCode.ERROR_CODE_AUTHENTICATION_FAILED,
        message, false, HttpHeaderNames.WWW_AUTHENTICATE.toString(), "Basic realm=\"partita\", charset=\"UTF-8\"");
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
