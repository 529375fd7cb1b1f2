package org.partita.server.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpVersion;

/**
 * One HTTP response, ready to be written. A reply owns its resources (a body
 * buffer, an open file) until {@link #write} or {@link #discard} hands them
 * off; exactly one of the two is called. Confined to the channel's event loop
 * once handed to a {@link ReplySink}.
 */
interface Reply {
  /**
   * Writes the response and flushes it. REQUIRES: on {@code ctx}'s event loop.
   *
   * @param keepAlive whether the connection stays open after this response
   * @param headOnly answer a HEAD request: headers (with the body's length) but no body
   * @return the future of the response's last write
   */
  ChannelFuture write(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, boolean headOnly);

  /** Whether the connection must be closed after this response whatever the request asked. */
  boolean closesConnection();

  /** Releases the reply's resources without writing it. */
  void discard();
}
