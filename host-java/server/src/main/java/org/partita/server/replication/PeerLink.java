package org.partita.server.replication;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.partita.proto.cluster.InternalFrame;
import org.partita.server.cluster.InternalConnector;

/**
 * This host's one outgoing internal connection to one peer host, for
 * replication (docs/cluster.md, "Wire and ports": one connection per pair of
 * hosts per direction), opened from this host's own address. It carries
 * everything this host has for the peer: batches of the partitions this
 * host leads and the peer replicates, acknowledgements of the partitions
 * the peer leads and this host replicates. It never reads: the peer's
 * frames for this host come on the peer's own connection.
 *
 * <p>Sources add work and {@link #wake} the link; one flush per event-loop
 * turn then pulls every frame the sources have, writes them while the
 * connection is writable and flushes once. A connection that fails or
 * closes is opened again after {@link #RECONNECT_MILLIS}, and every source
 * is told to send again what the peer has not acknowledged.
 *
 * <p>Thread model: {@link #wake} from any thread; everything else on the
 * connection's event loop.
 */
final class PeerLink implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(PeerLink.class.getName());
  static final long RECONNECT_MILLIS = 500;

  private final int host;
  private final InetSocketAddress address;
  private final InternalConnector connector;
  private final EventLoopGroup group;
  private final List<OutboundSource> sources = new CopyOnWriteArrayList<>();
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private volatile Channel channel;
  private volatile boolean closed;
  private boolean warned;

  PeerLink(int host, InetSocketAddress address, InternalConnector connector, EventLoopGroup group) {
    this.host = host;
    this.address = address;
    this.connector = connector;
    this.group = group;
  }

  int host() {
    return host;
  }

  /** Adds a source whose frames for this peer go on this link. */
  void add(OutboundSource source) {
    sources.add(source);
  }

  /** Opens the connection (and keeps it open until {@link #close}). */
  void start() {
    connect();
  }

  /** Some source has frames for the peer: queues one flush on the event loop unless one is queued. */
  void wake() {
    final Channel current = channel;
    if (current != null && flushQueued.compareAndSet(false, true)) {
      current.eventLoop().execute(this::flush);
    }
  }

  private void flush() {
    flushQueued.set(false);
    final Channel current = channel;
    if (current == null || !current.isActive()) {
      return;
    }
    boolean wrote = false;
    for (OutboundSource source : sources) {
      while (current.isWritable()) {
        final Object frame = source.nextFrame(host);
        if (frame == null) {
          break;
        }
        current.write(frame, current.voidPromise());
        wrote = true;
      }
    }
    if (wrote) {
      current.flush();
    }
  }

  private void connect() {
    if (closed || group.isShuttingDown()) {
      return;
    }
    final ChannelFuture connecting = connector.connect(address, WriteOnly::new);
    connecting.addListener(done -> {
      if (!done.isSuccess()) {
        if (!warned) {
          LOG.info("replication: host " + host + " (" + address + ") not reachable yet: " + done.cause().getMessage()
              + "; retrying every " + RECONNECT_MILLIS + " ms");
          warned = true;
        }
        retryLater();
        return;
      }
      warned = false;
      final Channel opened = connecting.channel();
      for (OutboundSource source : sources) {
        source.reconnected(host);
      }
      channel = opened;
      opened.closeFuture().addListener(c -> {
        if (channel == opened) {
          channel = null;
        }
        retryLater();
      });
      flush();
    });
  }

  private void retryLater() {
    if (!closed && !group.isShuttingDown()) {
      group.next().schedule(this::connect, RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    closed = true;
    final Channel current = channel;
    if (current != null) {
      current.close().awaitUninterruptibly();
    }
  }

  /** The outgoing connection takes no frames: the peer writes on its own connection. */
  private final class WriteOnly extends SimpleChannelInboundHandler<InternalFrame> {
    @Override
    protected void channelRead0(ChannelHandlerContext context, InternalFrame frame) {
      LOG.warning("replication: host " + host + " sent a frame (" + frame.getFrameCase() + ") on this host's"
          + " outgoing connection, which carries nothing back; closing it");
      context.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) {
      if (context.channel().isWritable()) {
        flush();
      }
      context.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      LOG.warning("replication: connection to host " + host + " failed: " + cause.getMessage());
      context.close();
    }
  }
}
