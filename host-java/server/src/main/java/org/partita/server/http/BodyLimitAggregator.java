package org.partita.server.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;

/**
 * Aggregates a request and its body into one FullHttpRequest, and replaces a
 * request whose body exceeds the limit (by its Content-Length, before the
 * body arrives, or while a chunked body accumulates) with an
 * {@link OversizedRequest}. The connection handler answers it 413 in turn and
 * closes the connection. Confined to the connection's event loop.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {
  BodyLimitAggregator(int maxBodyBytes) {
    super(maxBodyBytes);
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    ctx.fireChannelRead(new OversizedRequest(maxContentLength()));
  }

  /** No "100 Continue" for a body already known to be too large: it is refused by the 413 instead. */
  @Override
  protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
    if (HttpUtil.getContentLength(start, -1L) > maxContentLength) {
      return null;
    }
    return super.newContinueResponse(start, maxContentLength, pipeline);
  }
}
