package org.partita.server.cluster;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * How a host opens an internal connection to another host's internal port
 * (docs/cluster.md, "Wire and ports"): from its own address, on the
 * internal port's event loop, with mutual TLS and host admission first when
 * the cluster is secured (docs/security.md), then the framing, then the
 * handler {@code handler} makes. {@link ClusterMember#connector} gives the
 * host's own; {@link #plain} one without TLS. Thread-safe.
 */
@FunctionalInterface
public interface InternalConnector {
  /** Opens a connection to {@code to}; the future completes when it is connected (or failed). */
  ChannelFuture connect(InetSocketAddress to, Supplier<ChannelHandler> handler);

  /** Connections from {@code from} on {@code group}, without TLS (an unsecured cluster, tests). */
  static InternalConnector plain(EventLoopGroup group, InetAddress from) {
    return (to, handler) -> InternalFrames.connect(group, to, from, null, handler);
  }
}
