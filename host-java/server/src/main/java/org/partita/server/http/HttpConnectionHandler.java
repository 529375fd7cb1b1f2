package org.partita.server.http;

import org.partita.proto.ErrorCode;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Answers one connection's requests strictly one at a time, in arrival
 * order, so that keep-alive and pipelined requests get their responses in
 * request order: while a request is being answered the connection stops
 * reading (autoRead off), requests the decoder had already read wait in a
 * queue, and reading resumes once the last response is written.
 *
 * <p>Confined to the connection's event loop; replies from other threads
 * reach it through {@link ReplySink}s, which require the event loop.
 */
final class HttpConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = Logger.getLogger(HttpConnectionHandler.class.getName());

  private final HttpRouter router;
  private final ArrayDeque<Object> waiting = new ArrayDeque<>();
  private boolean answering;

  HttpConnectionHandler(HttpRouter router) {
    this.router = router;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest) && !(msg instanceof OversizedRequest)) {
      ReferenceCountUtil.release(msg);
      return;
    }
    waiting.add(msg);
    ctx.channel().config().setAutoRead(false);
    if (!answering) {
      answerNext(ctx);
    }
  }

  private void answerNext(ChannelHandlerContext ctx) {
    final Object next = waiting.poll();
    if (next == null) {
      answering = false;
      ctx.channel().config().setAutoRead(true);
      return;
    }
    answering = true;
    if (next instanceof OversizedRequest oversized) {
      final Reply reply = Replies.error(ctx.alloc(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, ErrorCode.ERROR_CODE_REQUEST_TOO_LARGE,
          "the request body exceeds the limit of " + oversized.maxBodyBytes() + " bytes", true);
      send(ctx, reply, HttpVersion.HTTP_1_1, false, false);
      return;
    }
    final FullHttpRequest request = (FullHttpRequest) next;
    final HttpVersion version = request.protocolVersion();
    final boolean keepAlive = HttpUtil.isKeepAlive(request);
    final boolean headOnly = request.method().equals(HttpMethod.HEAD);
    try {
      router.route(request, ctx, reply -> send(ctx, reply, version, keepAlive, headOnly));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "HTTP request " + request.method() + " " + request.uri() + " failed", e);
      send(ctx, Replies.error(ctx.alloc(), HttpResponseStatus.INTERNAL_SERVER_ERROR, ErrorCode.ERROR_CODE_INTERNAL,
          "the server failed to answer: " + e, true), version, false, headOnly);
    } finally {
      request.release();
    }
  }

  // Writes the current request's reply, then moves on to the next request (or closes).
  private void send(ChannelHandlerContext ctx, Reply reply, HttpVersion version, boolean keepAlive, boolean head) {
    if (!ctx.channel().isActive()) {
      reply.discard();
      return;
    }
    final boolean stayOpen = keepAlive && !reply.closesConnection();
    reply.write(ctx, version, stayOpen, head).addListener((ChannelFutureListener) written -> {
      if (!written.isSuccess() || !stayOpen) {
        ctx.close();
        return;
      }
      answerNext(ctx);
    });
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    for (Object msg : waiting) {
      ReferenceCountUtil.release(msg);
    }
    waiting.clear();
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof IOException)) {
      LOG.log(Level.FINE, "HTTP connection " + ctx.channel().remoteAddress() + " failed", cause);
    }
    ctx.close();
  }
}
