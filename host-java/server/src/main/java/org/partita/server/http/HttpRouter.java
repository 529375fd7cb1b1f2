package org.partita.server.http;

import org.partita.proto.ErrorCode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.function.BooleanSupplier;

/**
 * Sends each request to its endpoint by path (docs/http-api.md,
 * "Endpoints"): {@code /api/1.0/} (with or without the slash) to the call
 * endpoint, {@code /api/1.0/token} to the token endpoint, {@code /health} to the health answer, {@code /cluster}
 * and what is under it to the cluster page on a cluster host, anything else to the static
 * files when a web root is set, else 404. A request the HTTP decoder could not
 * read is answered 400 and its connection closed. Thread-safe (immutable).
 */
final class HttpRouter {
  static final String API_PATH = "/api/1.0";
  static final String HEALTH_PATH = "/health";

  private final ApiEndpoint api;
  private final TokenEndpoint tokens;
  private final StaticFiles files;
  private final ClusterPage clusterPage;
  private final BooleanSupplier shuttingDown;

  /**
   * @param tokens the token endpoint
   * @param files the static files, or null when none are served
   * @param clusterPage the cluster page, or null when not a cluster host
   */
  HttpRouter(ApiEndpoint api, TokenEndpoint tokens, StaticFiles files, ClusterPage clusterPage,
      BooleanSupplier shuttingDown) {
    this.api = api;
    this.tokens = tokens;
    this.files = files;
    this.clusterPage = clusterPage;
    this.shuttingDown = shuttingDown;
  }

  /** Answers {@code request} through {@code sink}, now or later. REQUIRES: on {@code ctx}'s event loop. */
  void route(FullHttpRequest request, ChannelHandlerContext ctx, ReplySink sink) {
    final ByteBufAllocator alloc = ctx.alloc();
    if (request.decoderResult().isFailure()) {
      final Throwable cause = request.decoderResult().cause();
      sink.send(Replies.error(alloc, HttpResponseStatus.BAD_REQUEST, ErrorCode.ERROR_CODE_BAD_REQUEST,
          "malformed HTTP request: " + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), true));
      return;
    }
    final String uri = request.uri();
    if (!uri.startsWith("/")) {
      sink.send(Replies.error(alloc, HttpResponseStatus.BAD_REQUEST, ErrorCode.ERROR_CODE_BAD_REQUEST,
          "the request target must be a path starting with '/', not " + abbreviate(uri), false));
      return;
    }
    final String path = rawPath(uri);
    if (path.equals(API_PATH) || path.equals(API_PATH + "/")) {
      api.serve(request, ctx, sink);
    } else if (path.equals(TokenEndpoint.PATH)) {
      tokens.serve(request, ctx, sink);
    } else if (path.equals(HEALTH_PATH)) {
      health(request, alloc, sink);
    } else if (clusterPage != null && ClusterPage.owns(path)) {
      clusterPage.serve(request.method(), path, alloc, sink);
    } else if (files != null) {
      files.serve(request.method(), path, alloc, sink);
    } else {
      sink.send(Replies.notFound(alloc, abbreviate(path)));
    }
  }

  private void health(FullHttpRequest request, ByteBufAllocator alloc, ReplySink sink) {
    final HttpMethod method = request.method();
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
      sink.send(Replies.methodNotAllowed(alloc, method.name(), HEALTH_PATH, "GET, HEAD"));
      return;
    }
    sink.send(Replies.health(alloc, shuttingDown.getAsBoolean()));
  }

  // The path part of an origin-form request target, still percent-encoded.
  private static String rawPath(String uri) {
    final int query = uri.indexOf('?');
    final int fragment = uri.indexOf('#');
    int end = uri.length();
    if (query >= 0) {
      end = query;
    }
    if (fragment >= 0 && fragment < end) {
      end = fragment;
    }
    return uri.substring(0, end);
  }

  /** {@code text} cut to a length fit for a message. */
  static String abbreviate(String text) {
    final int max = 200;
    return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters)";
  }
}
