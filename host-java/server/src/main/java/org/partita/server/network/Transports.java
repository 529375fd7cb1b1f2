package org.partita.server.network;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * Chooses Netty's native epoll transport where it loads (Linux), NIO
 * elsewhere, so every listener of the server uses the same kind of event
 * loop. Stateless.
 */
public final class Transports {
  private Transports() {}

  /** True iff the native epoll transport is in use. */
  public static boolean nativeEpoll() {
    return Epoll.isAvailable();
  }

  /** A group of {@code threads} event loops whose threads are named {@code name-N}. */
  public static EventLoopGroup eventLoopGroup(int threads, String name) {
    final DefaultThreadFactory factory = new DefaultThreadFactory(name, true);
    return nativeEpoll() ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
  }

  /** The listening-socket class matching {@link #eventLoopGroup}. */
  public static Class<? extends ServerChannel> serverChannelClass() {
    return nativeEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
