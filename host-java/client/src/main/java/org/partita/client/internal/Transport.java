package org.partita.client.internal;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The client's I/O threads: Linux's native epoll transport when asked for
 * and available, else Java NIO. Threads are daemons named
 * "partita-client-N", so a client never keeps a JVM alive. Thread-safe.
 */
public final class Transport implements AutoCloseable {
  private final EventLoopGroup group;
  private final Class<? extends SocketChannel> channelClass;
  private final boolean epoll;

  public Transport(boolean preferEpoll, int threads) {
    this.epoll = preferEpoll && Epoll.isAvailable();
    final DefaultThreadFactory factory = new DefaultThreadFactory("partita-client", true);
    this.group = epoll ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
    this.channelClass = epoll ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The event loop a new connection will live on (round-robin). */
  public EventLoop nextLoop() {
    return group.next();
  }

  /** Whether the calling thread is one of this transport's I/O threads. */
  public boolean inIoThread() {
    for (EventExecutor loop : group) {
      if (loop.inEventLoop()) {
        return true;
      }
    }
    return false;
  }

  public Class<? extends SocketChannel> channelClass() {
    return channelClass;
  }

  public boolean isEpoll() {
    return epoll;
  }

  /** Stops the I/O threads, waiting up to a few seconds for queued tasks to run. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
