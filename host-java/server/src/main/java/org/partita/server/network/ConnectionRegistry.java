package org.partita.server.network;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.partita.server.stats.ConnectionSnapshot;

/**
 * The open connections of the client protocol, for statistics and for
 * graceful shutdown: once {@link #beginShutdown} is called, logins are
 * refused and new calls rejected, and {@link #awaitQuiet} waits until every
 * accepted call has been answered. Thread-safe.
 */
final class ConnectionRegistry {
  private static final long POLL_MILLIS = 5;

  private final ConcurrentHashMap<Long, ClientConnection> open = new ConcurrentHashMap<>();
  private volatile boolean shuttingDown;

  void opened(ClientConnection connection) {
    open.put(connection.id(), connection);
  }

  void closed(ClientConnection connection) {
    open.remove(connection.id());
  }

  /** Queues {@code push} on every open connection that asked for topology pushes; returns how many. */
  int pushTopology(org.partita.client.proto.ServerMessage push) {
    int sent = 0;
    for (ClientConnection c : open.values()) {
      if (c.pushTopology(push)) {
        sent++;
      }
    }
    return sent;
  }

  boolean shuttingDown() {
    return shuttingDown;
  }

  void beginShutdown() {
    shuttingDown = true;
  }

  /** Calls accepted on open connections and not yet answered. */
  int unanswered() {
    int total = 0;
    for (ClientConnection c : open.values()) {
      total += c.unanswered();
    }
    return total;
  }

  /** Waits until no open connection has an unanswered call, or the timeout passes. Returns true iff quiet. */
  boolean awaitQuiet(long timeout, TimeUnit unit) throws InterruptedException {
    final long deadline = System.nanoTime() + unit.toNanos(timeout);
    while (unanswered() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(POLL_MILLIS);
    }
    return true;
  }

  /** Asks every open connection to close gracefully ({@link ClientConnection#closeGracefully}). */
  void closeAllGracefully(long timeoutMillis) {
    open.values().forEach(c -> c.closeGracefullyLater(timeoutMillis));
  }

  List<ConnectionSnapshot> snapshots() {
    final List<ConnectionSnapshot> out = new ArrayList<>();
    open.values().forEach(c -> out.add(c.snapshot()));
    return out;
  }
}
