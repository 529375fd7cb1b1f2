package org.partita.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.partita.proto.ErrorCode;
import org.partita.server.security.AuditLog;
import org.partita.server.security.HttpTokens;
import org.partita.server.security.PeerAddress;
import org.partita.server.security.UserEntry;

/**
 * The token endpoint {@code /api/1.0/token} (docs/http-api.md, "Security";
 * docs/security.md, "HTTP tokens"): {@code POST} with HTTP Basic credentials
 * answers a new bearer token for that user ({@code {"token": ..., "tokenType":
 * "Bearer", "user": ..., "expiresInSeconds": ...}}, never cached);
 * {@code DELETE} with {@code Authorization: Bearer TOKEN} revokes that token.
 * A token cannot be used to get another (a token's life is not extended
 * without the password). With security off there are no tokens: 400. Every
 * issue and revocation writes an audit line. Thread-safe (immutable).
 */
final class TokenEndpoint {
  static final String PATH = HttpRouter.API_PATH + "/token";

  /** Null when security is off. */
  private final HttpAuthentication authentication;

  TokenEndpoint(HttpAuthentication authentication) {
    this.authentication = authentication;
  }

  /** Answers {@code request} through {@code sink}, now or later. REQUIRES: on {@code ctx}'s event loop. */
  void serve(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final HttpMethod method = request.method();
    if (!method.equals(HttpMethod.POST) && !method.equals(HttpMethod.DELETE)) {
      sink.send(Replies.methodNotAllowed(ctx.alloc(), method.name(), PATH, "POST, DELETE"));
      return;
    }
    if (authentication == null) {
      sink.send(Replies.error(ctx.alloc(), HttpResponseStatus.BAD_REQUEST, ErrorCode.ERROR_CODE_BAD_REQUEST,
          "security is off on this server (no --users): calls need no token", false));
      return;
    }
    if (method.equals(HttpMethod.POST)) {
      issue(request, ctx, sink);
    } else {
      revoke(request, ctx, sink);
    }
  }

  private void issue(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final UserEntry user = authentication.user(request, ctx, sink, false);
    if (user == null) {
      return;
    }
    final HttpTokens tokens = authentication.authenticator().tokens();
    final String token = tokens.issue(user);
    AuditLog.token(user.name(), PeerAddress.of(ctx.channel().remoteAddress()), "issued");
    final ObjectNode body = Json.MAPPER.createObjectNode().put("token", token).put("tokenType", "Bearer")
        .put("user", user.name()).put("expiresInSeconds", tokens.lifetime().toSeconds());
    sink.send(json(ctx, body));
  }

  private void revoke(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
    if (!HttpAuthentication.startsWith(header, HttpAuthentication.BEARER)) {
      sink.send(Replies.error(ctx.alloc(), HttpResponseStatus.BAD_REQUEST, ErrorCode.ERROR_CODE_BAD_REQUEST,
          "DELETE " + PATH + " revokes the token it carries: give it as 'Authorization: Bearer TOKEN'", false));
      return;
    }
    final UserEntry user = authentication.user(request, ctx, sink, true);
    if (user == null) {
      return;
    }
    authentication.authenticator().tokens().revoke(header.substring(HttpAuthentication.BEARER.length()).strip());
    AuditLog.token(user.name(), PeerAddress.of(ctx.channel().remoteAddress()), "revoked");
    sink.send(json(ctx, Json.MAPPER.createObjectNode().put("revoked", true).put("user", user.name())));
  }

  private static Reply json(ChannelHandlerContext ctx, ObjectNode body) {
    final byte[] bytes;
    try {
      bytes = Json.MAPPER.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a token answer", e);
    }
    return new BufferReply(HttpResponseStatus.OK, Replies.JSON, ctx.alloc().buffer(bytes.length).writeBytes(bytes),
        false, HttpHeaderNames.CACHE_CONTROL.toString(), "no-store");
  }
}
