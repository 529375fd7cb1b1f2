package org.partita.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.partita.proto.ErrorCode;
import org.partita.server.security.AuditLog;
import org.partita.server.security.AuthenticationException;
import org.partita.server.security.Authenticator;
import org.partita.server.security.PeerAddress;
import org.partita.server.security.UserEntry;

/**
 * Who makes an HTTP API request when security is on (docs/security.md,
 * "HTTP"): HTTP Basic credentials checked against the users, or a bearer
 * token ({@code Authorization: Bearer}) the token endpoint issued. A request
 * without credentials is answered 401 at once; wrong ones (an unknown user,
 * a wrong password, an unknown, revoked or expired token) 401 after the
 * failed-login delay, logged with the peer, never saying what was wrong.
 * Thread-safe (immutable; the authenticator is).
 */
final class HttpAuthentication {
  static final String BEARER = "Bearer ";
  private static final String BASIC = "Basic ";

  private final Authenticator authenticator;

  HttpAuthentication(Authenticator authenticator) {
    this.authenticator = authenticator;
  }

  Authenticator authenticator() {
    return authenticator;
  }

  /**
   * The user making {@code request}, or null once a 401 was sent (or scheduled) through {@code sink}.
   * {@code acceptToken}: whether a bearer token may stand for the user (not when one is being issued).
   * REQUIRES: on {@code ctx}'s event loop.
   */
  UserEntry user(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink, boolean acceptToken) {
    final String peer = PeerAddress.of(ctx.channel().remoteAddress());
    final String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    final boolean token = acceptToken && startsWith(header, BEARER);
    if (!token && !startsWith(header, BASIC)) {
      AuditLog.loginRefused("", peer, "http", acceptToken ? "no Basic credentials or token" : "no Basic credentials");
      sink.send(unauthorized(ctx, "this server requires a user and password (HTTP Basic, over TLS)"
          + (acceptToken ? " or a token (docs/security.md)" : "")));
      return null;
    }
    String claimed = "";
    try {
      final UserEntry user;
      if (token) {
        user = authenticator.tokens().verify(header.substring(BEARER.length()).strip());
      } else {
        final String pair = new String(Base64.getDecoder().decode(header.substring(BASIC.length()).strip()),
            StandardCharsets.UTF_8);
        final int colon = pair.indexOf(':');
        if (colon < 0) {
          throw new AuthenticationException("Basic credentials without ':'");
        }
        claimed = pair.substring(0, colon);
        user = authenticator.verifyPassword(claimed, pair.substring(colon + 1));
      }
      AuditLog.loginAccepted(user.name(), peer, token ? "http-token" : "http");
      return user;
    } catch (AuthenticationException | IllegalArgumentException e) {
      AuditLog.loginRefused(claimed, peer, token ? "http-token" : "http", e.getMessage());
      ctx.executor().schedule(() -> sink.send(unauthorized(ctx, "authentication failed")),
          Authenticator.FAILED_LOGIN_DELAY_MILLIS, TimeUnit.MILLISECONDS);
      return null;
    }
  }

  static boolean startsWith(String header, String scheme) {
    return header != null && header.regionMatches(true, 0, scheme, 0, scheme.length());
  }

  private static Reply unauthorized(ChannelHandlerContext ctx, String message) {
    return Replies.error(ctx.alloc(), HttpResponseStatus.UNAUTHORIZED, ErrorCode.ERROR_CODE_AUTHENTICATION_FAILED,
        message, false, HttpHeaderNames.WWW_AUTHENTICATE.toString(),
        "Basic realm=\"partita\", charset=\"UTF-8\", Bearer realm=\"partita\"");
  }
}
