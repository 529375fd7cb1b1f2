package org.partita.server.cluster;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.proto.cluster.Heartbeat;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.WatchMetadata;

/**
 * A host's outgoing internal connections to the metadata voters
 * (docs/cluster.md, "Wire and ports"), each opened from the host's own
 * address: on every connection it watches the metadata (each update goes
 * into the {@link MetadataView}) and sends a heartbeat every
 * {@link #HEARTBEAT_MILLIS}. A connection that fails or closes is opened
 * again after {@link #RECONNECT_MILLIS}, until {@link #close}.
 *
 * <p>Thread model: everything runs on the given event loop group's
 * threads; {@link #start} and {@link #close} may be called from any thread.
 */
final class InternalLinks implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(InternalLinks.class.getName());
  static final long HEARTBEAT_MILLIS = 500;
  static final long RECONNECT_MILLIS = 500;

  private final int hostId;
  private final long incarnation;
  private final InetAddress bindAddress;
  private final List<InetSocketAddress> voters;
  private final MetadataView view;
  private final EventLoopGroup group;
  /** Mutual TLS and host admission on every connection, or null on a trusted network (docs/security.md). */
  private final ClusterTls tls;
  private final Map<InetSocketAddress, Channel> open = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private ScheduledFuture<?> heartbeats;

  InternalLinks(int hostId, long incarnation, InetAddress bindAddress, List<InetSocketAddress> voters,
      MetadataView view, EventLoopGroup group) {
    this(hostId, incarnation, bindAddress, voters, view, group, null);
  }

  /** With {@code tls}, every connection passes {@link HostAdmission} before its first frame. */
  InternalLinks(int hostId, long incarnation, InetAddress bindAddress, List<InetSocketAddress> voters,
      MetadataView view, EventLoopGroup group, ClusterTls tls) {
    this.tls = tls;
    this.hostId = hostId;
    this.incarnation = incarnation;
    this.bindAddress = bindAddress;
    this.voters = List.copyOf(voters);
    this.view = view;
    this.group = group;
  }

  /** Opens a connection to every voter and starts the heartbeats. */
  void start() {
    for (InetSocketAddress voter : voters) {
      connect(voter);
    }
    final InternalFrame beat = InternalFrame.newBuilder()
        .setHeartbeat(Heartbeat.newBuilder().setHostId(hostId).setIncarnation(incarnation)).build();
    heartbeats = group.next().scheduleAtFixedRate(() -> {
      for (Channel channel : open.values()) {
        channel.writeAndFlush(beat);
      }
    }, 0, HEARTBEAT_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** The number of voters this host is connected to now. */
  int connectedVoters() {
    return open.size();
  }

  private void connect(InetSocketAddress voter) {
    if (closed) {
      return;
    }
    final ChannelFuture connecting = InternalFrames.connect(group, voter, bindAddress, tls, () -> new Watch(voter));
    connecting.addListener(done -> {
      if (!done.isSuccess()) {
        retryLater(voter);
        return;
      }
      final Channel channel = connecting.channel();
      open.put(voter, channel);
      channel.writeAndFlush(InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(hostId)).build());
      channel.closeFuture().addListener(c -> {
        open.remove(voter, channel);
        retryLater(voter);
      });
    });
  }

  private void retryLater(InetSocketAddress voter) {
    if (!closed && !group.isShuttingDown()) {
      group.next().schedule(() -> connect(voter), RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    closed = true;
    if (heartbeats != null) {
      heartbeats.cancel(false);
    }
    for (Channel channel : open.values()) {
      channel.close().awaitUninterruptibly();
    }
  }

  private final class Watch extends SimpleChannelInboundHandler<InternalFrame> {
    private final InetSocketAddress voter;

    Watch(InetSocketAddress voter) {
      this.voter = voter;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, InternalFrame frame) {
      if (frame.getFrameCase() == InternalFrame.FrameCase.METADATA) {
        view.offer(frame.getMetadata());
      } else {
        LOG.warning("internal port: voter " + voter + " sent an unexpected frame (" + frame.getFrameCase()
            + "); closing that connection");
        context.close();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      LOG.warning("internal port: connection to voter " + voter + " failed: " + cause.getMessage());
      context.close();
    }
  }
}
