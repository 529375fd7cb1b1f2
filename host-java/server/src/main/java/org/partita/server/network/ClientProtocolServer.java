package org.partita.server.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import io.netty.handler.ssl.SslContext;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.security.Authenticator;
import org.partita.server.stats.ConnectionSnapshot;

/**
 * The listener of the binary client protocol (docs/wire-protocol.md): accepts
 * TCP connections, splits frames (4-byte big-endian length), and gives each
 * connection a {@link ClientConnection}. Lifecycle: {@link #start}, then
 * {@link #stopAccepting}, {@link #awaitQuiet}, {@link #closeConnections}.
 * Thread-safe.
 */
public final class ClientProtocolServer {
  private static final Logger LOG = Logger.getLogger(ClientProtocolServer.class.getName());
  private static final int LOW_WATER_MARK = 256 * 1024;
  private static final int HIGH_WATER_MARK = 1024 * 1024;
  private static final long CLOSE_WAIT_MILLIS = 2000;

  private final Dispatcher dispatcher;
  private final LoginInfo identity;
  private final ConnectionLimits limits;
  private final ConnectionRegistry registry = new ConnectionRegistry();
  private final TopologyPusher pusher;
  private final ChannelGroup channels = new DefaultChannelGroup("partita-clients", GlobalEventExecutor.INSTANCE);
  private final AtomicLong nextConnectionId = new AtomicLong(1);
  private Channel listener;
  private final Authenticator authenticator;
  private final SslContext tls;

  public ClientProtocolServer(Dispatcher dispatcher, LoginInfo identity, ConnectionLimits limits) {
    this(dispatcher, identity, limits, null, null);
  }

  /**
   * A listener whose logins {@code authenticator} checks (null: no authentication) and whose
   * connections speak TLS with {@code tls} (null: plain TCP); docs/security.md.
   */
  public ClientProtocolServer(Dispatcher dispatcher, LoginInfo identity, ConnectionLimits limits,
      Authenticator authenticator, SslContext tls) {
    this.dispatcher = dispatcher;
    this.identity = identity;
    this.limits = limits;
    this.authenticator = authenticator;
    this.tls = tls;
    this.pusher = new TopologyPusher(identity, registry);
  }

  /** Binds {@code address:port} (0 = any free port) and returns the port bound. */
  public int start(String address, int port, EventLoopGroup boss, EventLoopGroup workers) throws InterruptedException {
    final ServerBootstrap bootstrap = new ServerBootstrap()
        .group(boss, workers)
        .channel(Transports.serverChannelClass())
        .option(ChannelOption.SO_BACKLOG, 1024)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(LOW_WATER_MARK, HIGH_WATER_MARK))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            channels.add(ch);
            if (tls != null) {
              ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
            }
            ch.pipeline()
                .addLast("frames", new LengthFieldBasedFrameDecoder(limits.maxFrameBytes(), 0, 4, 0, 4))
                .addLast("connection", new ClientConnection(nextConnectionId.getAndIncrement(), dispatcher, identity,
                    limits, registry, authenticator));
          }
        });
    listener = bootstrap.bind(address, port).sync().channel();
    pusher.start(workers.next());
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** Closes the listening socket, refuses new logins and rejects new calls; accepted calls still finish. */
  public void stopAccepting() {
    pusher.stop();
    registry.beginShutdown();
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
  }

  /** Waits until every accepted call has been answered; true iff that happened within the timeout. */
  public boolean awaitQuiet(long timeout, TimeUnit unit) throws InterruptedException {
    return registry.awaitQuiet(timeout, unit);
  }

  /**
   * Closes every connection once its answers are written: each half-closes
   * and waits (up to 2 s) for its client to close, so that no written answer
   * is lost to a TCP reset. Returns when all are closed (at most ~3 s).
   */
  public void closeConnections() {
    registry.closeAllGracefully(CLOSE_WAIT_MILLIS);
    channels.newCloseFuture().awaitUninterruptibly(CLOSE_WAIT_MILLIS + 1000);
    if (!channels.isEmpty()) {
      LOG.warning(channels.size() + " connection(s) did not close in time; closing them");
      channels.close().awaitUninterruptibly(1000);
    }
  }

  /** Calls accepted on open connections and not yet answered. */
  public int unanswered() {
    return registry.unanswered();
  }

  public List<ConnectionSnapshot> connections() {
    return registry.snapshots();
  }

  public ConnectionLimits limits() {
    return limits;
  }
}
