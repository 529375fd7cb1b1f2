package org.partita.server.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * A static file sent from disk without copying it through the heap (a
 * {@link DefaultFileRegion}). Owns the open file until written or discarded;
 * see {@link Reply}.
 */
final class FileReply implements Reply {
  private final FileChannel file;
  private final long length;
  private final String contentType;

  FileReply(FileChannel file, long length, String contentType) {
    this.file = file;
    this.length = length;
    this.contentType = contentType;
  }

  @Override
  public ChannelFuture write(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, boolean headOnly) {
    final HttpResponse head = new DefaultHttpResponse(version, HttpResponseStatus.OK);
    head.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    head.headers().set("X-Content-Type-Options", "nosniff");
    HttpUtil.setContentLength(head, length);
    HttpUtil.setKeepAlive(head, keepAlive);
    ctx.write(head);
    if (headOnly) {
      discard();
    } else {
      ctx.write(new DefaultFileRegion(file, 0, length));
    }
    return ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
  }

  @Override
  public boolean closesConnection() {
    return false;
  }

  @Override
  public void discard() {
    try {
      file.close();
    } catch (IOException e) {
      // Nothing was written from this file; closing a read-only file cannot lose data.
    }
  }
}
