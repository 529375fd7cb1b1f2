package org.partita.server.cluster;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * The listening side of a host's internal port (docs/cluster.md, "Wire and
 * ports"), bound to the host's own address. It carries, for now, the
 * heartbeats other hosts send (recorded in a {@link HeartbeatTable}) and
 * the metadata watch: a host that sends {@code WatchMetadata} receives this
 * voter's metadata at once and again after every change
 * ({@link #publish}). Only voters answer a watch. Replication and
 * multi-partition frames go on to the handler {@link #acceptReplication}
 * gives (added behind this one on a connection's first such frame); before
 * there is one they close their connection, and the sender connects again
 * later. A malformed frame, an
 * unexpected one or a frame over the size bound closes that connection with
 * a warning naming the peer; nothing a peer sends stops the server. On a
 * secured cluster each connection first passes {@link HostAdmission}
 * (mutual TLS, the peer's certificate naming its address).
 *
 * <p>Thread model: Netty's event loops run the handlers; {@link #publish}
 * may be called from any thread (it only enqueues writes).
 */
final class InternalServer implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(InternalServer.class.getName());
  private static final String REPLICATION = "replication";

  private final HeartbeatTable heartbeats;
  /** The voter's own metadata, or null on a host that is not a voter. */
  private final Supplier<MetadataSnapshot> metadata;
  /** Mutual TLS and host admission on every connection, or null on a trusted network (docs/security.md). */
  private final ClusterTls tls;
  private final ChannelGroup watchers = new DefaultChannelGroup("partita-watchers", GlobalEventExecutor.INSTANCE);
  private Channel listener;
  /** Makes the handler of replication frames for one connection; null until the host replicates. */
  private volatile Supplier<ChannelHandler> replication;

  InternalServer(HeartbeatTable heartbeats, Supplier<MetadataSnapshot> metadata) {
    this(heartbeats, metadata, null);
  }

  /** With {@code tls}, every connection passes {@link HostAdmission} before its first frame. */
  InternalServer(HeartbeatTable heartbeats, Supplier<MetadataSnapshot> metadata, ClusterTls tls) {
    this.heartbeats = heartbeats;
    this.metadata = metadata;
    this.tls = tls;
  }

  /** Binds {@code address} (port 0: any free port) on {@code group}; returns the port bound. */
  int start(InetSocketAddress address, EventLoopGroup group) throws InterruptedException {
    listener = new ServerBootstrap().group(group).channel(InternalTransport.serverChannel(group))
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            if (tls != null) {
              HostAdmission.accepting(channel, tls);
            }
            InternalFrames.install(channel.pipeline());
            channel.pipeline().addLast("internal", new Handler());
          }
        })
        .bind(address).sync().channel();
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** From now on, replication frames go to a handler {@code handlers} makes for each connection. */
  void acceptReplication(Supplier<ChannelHandler> handlers) {
    replication = handlers;
  }

  /** Sends {@code snapshot} to every watching host. */
  void publish(MetadataSnapshot snapshot) {
    watchers.writeAndFlush(InternalFrame.newBuilder().setMetadata(snapshot).build());
  }

  @Override
  public void close() {
    if (listener != null) {
      listener.close().syncUninterruptibly();
    }
    watchers.close().awaitUninterruptibly();
  }

  private final class Handler extends SimpleChannelInboundHandler<InternalFrame> {
    @Override
    protected void channelRead0(ChannelHandlerContext context, InternalFrame frame) {
      switch (frame.getFrameCase()) {
        case HEARTBEAT -> heartbeats.record(frame.getHeartbeat().getHostId(), frame.getHeartbeat().getIncarnation(),
            System.nanoTime());
        case WATCH -> watch(context.channel(), frame.getWatch().getHostId());
        case REPLICATION_BATCH, REPLICATION_ACK, FRAGMENT_REQUEST, FRAGMENT_ANSWER, FORWARDED_CALL, FORWARDED_ANSWER,
            REJOIN_START, REJOIN_CHUNK, REJOIN_ITEMS, REJOIN_PROGRESS, REPAIR_OFFER, REPAIR_ITEMS ->
            replicate(context, frame);
        default -> refuse(context.channel(), "an unexpected internal frame (" + frame.getFrameCase() + ")");
      }
    }

    private void replicate(ChannelHandlerContext context, InternalFrame frame) {
      if (context.pipeline().get(REPLICATION) == null) {
        final Supplier<ChannelHandler> handlers = replication;
        if (handlers == null) {
          refuse(context.channel(), "a replication frame before this host opened its partitions");
          return;
        }
        context.pipeline().addLast(REPLICATION, handlers.get());
      }
      context.fireChannelRead(frame);
    }

    private void watch(Channel channel, int hostId) {
      if (metadata == null) {
        refuse(channel, "a metadata watch from host " + hostId + ", but this host is not a metadata voter");
        return;
      }
      watchers.add(channel);
      channel.writeAndFlush(InternalFrame.newBuilder().setMetadata(metadata.get()).build());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      refuse(context.channel(), "a bad frame (" + cause.getMessage() + ")");
    }

    private void refuse(Channel channel, String what) {
      LOG.warning("internal port: " + channel.remoteAddress() + " sent " + what + "; closing that connection");
      channel.close();
    }
  }
}
