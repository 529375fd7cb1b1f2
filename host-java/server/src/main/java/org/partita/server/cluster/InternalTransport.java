package org.partita.server.cluster;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The internal port's transport (docs/cluster.md, "Wire and ports"): the
 * host's internal event loop is Netty's native epoll where it loads (Linux),
 * NIO elsewhere, and every channel opened on a group is of that group's
 * kind (a caller may hand in a NIO group of its own, as tests do).
 * Stateless.
 */
final class InternalTransport {
  private InternalTransport() {}

  /** A group of one event loop whose thread is named {@code name-N}: epoll where it loads, NIO elsewhere. */
  static EventLoopGroup eventLoop(String name) {
    final DefaultThreadFactory factory = new DefaultThreadFactory(name, true);
    return Epoll.isAvailable() ? new EpollEventLoopGroup(1, factory) : new NioEventLoopGroup(1, factory);
  }

  /** The connecting channel class for {@code group}'s kind of event loop. */
  static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
    return group instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The listening channel class for {@code group}'s kind of event loop. */
  static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
    return group instanceof EpollEventLoopGroup ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }
}
