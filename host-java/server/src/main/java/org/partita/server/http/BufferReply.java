package org.partita.server.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

/** A response whose body is in memory (JSON answers, errors). See {@link Reply} for ownership and threads. */
final class BufferReply implements Reply {
  private final HttpResponseStatus status;
  private final CharSequence contentType;
  private final ByteBuf body;
  private final boolean close;
  private final String[] headers;

  /**
   * @param headers extra header names and values, alternating
   */
  BufferReply(HttpResponseStatus status, CharSequence contentType, ByteBuf body, boolean close, String... headers) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    this.close = close;
    this.headers = headers;
  }

  HttpResponseStatus status() {
    return status;
  }

  @Override
  public ChannelFuture write(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, boolean headOnly) {
    final int length = body.readableBytes();
    final ByteBuf content = headOnly ? Unpooled.EMPTY_BUFFER : body;
    if (headOnly) {
      body.release();
    }
    final FullHttpResponse response = new DefaultFullHttpResponse(version, status, content);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      response.headers().set(headers[i], headers[i + 1]);
    }
    HttpUtil.setContentLength(response, length);
    HttpUtil.setKeepAlive(response, keepAlive);
    return ctx.writeAndFlush(response);
  }

  @Override
  public boolean closesConnection() {
    return close;
  }

  @Override
  public void discard() {
    body.release();
  }
}
