package org.partita.server.network;

import io.netty.channel.EventLoop;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.proto.ServerMessage;
import org.partita.client.proto.TopologyPush;

/**
 * Sends a host's new topology to every open client connection that asked
 * for it at login (docs/wire-protocol.md, "Topology push"): every
 * {@link #INTERVAL_MILLIS} it reads the topology version the host follows
 * ({@link LoginInfo#topologyVersion}, one volatile read) and, when it
 * moved, builds the message once and queues it on each such connection, so
 * an idle client reroutes without waiting for a call to fail. A single
 * server's version never moves: nothing is ever sent there.
 *
 * <p>Runs on one event loop of the server; {@link #stop} may be called from
 * any thread.
 */
final class TopologyPusher {
  private static final Logger LOG = Logger.getLogger(TopologyPusher.class.getName());
  /** How often the version is looked at: a push leaves at most this long after the host followed a new map. */
  static final long INTERVAL_MILLIS = 50;

  private final LoginInfo identity;
  private final ConnectionRegistry registry;
  private long pushed;
  private ScheduledFuture<?> task;

  TopologyPusher(LoginInfo identity, ConnectionRegistry registry) {
    this.identity = identity;
    this.registry = registry;
  }

  /** Starts looking on {@code loop}: versions after the current one are pushed. */
  synchronized void start(EventLoop loop) {
    pushed = identity.topologyVersion();
    task = loop.scheduleAtFixedRate(this::look, INTERVAL_MILLIS, INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
  }

  synchronized void stop() {
    if (task != null) {
      task.cancel(false);
      task = null;
    }
  }

  private void look() {
    final long version = identity.topologyVersion();
    if (version <= pushed) {
      return;
    }
    try {
      final ServerMessage push = ServerMessage.newBuilder().setTopologyPush(TopologyPush.newBuilder()
          .setTopology(identity.successfulLogin(0).getTopology())).build();
      pushed = push.getTopologyPush().getTopology().getTopologyVersion();
      final int sent = registry.pushTopology(push);
      LOG.info("topology " + pushed + " pushed to " + sent + " client connection(s)");
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not push topology " + version + " to the clients", e);
    }
  }
}
