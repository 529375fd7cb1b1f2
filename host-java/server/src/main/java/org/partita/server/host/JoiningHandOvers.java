package org.partita.server.host;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hand-overs of this host's joining copies (docs/cluster.md, "Rejoin"):
 * once the metadata added a joining copy to its partition's new epoch, the
 * copy follows that epoch only after the old epoch's last items reached it.
 * Each hand-over waits on a thread of its own, never on the map follower's:
 * one partition's old epoch can end only after another partition this host
 * joins entered its new epoch (its leader's switch queued behind a
 * multi-partition join whose other part waits for this host's copy of the
 * other partition), which the follower does on its next map. A later change
 * of the same partition waits for its hand-over ({@link #await}).
 *
 * <p>Thread model: {@link #start} and {@link #await} on the follower's thread;
 * each hand-over on its own daemon thread.
 */
final class JoiningHandOvers {
  private final Map<Integer, CompletableFuture<Void>> underWay = new ConcurrentHashMap<>();

  /** Runs {@code handOver} for {@code partition} on a thread of its own; returns at once. */
  void start(int partition, Runnable handOver) {
    final CompletableFuture<Void> done = new CompletableFuture<>();
    underWay.put(partition, done);
    final Thread waiter = new Thread(() -> {
      try {
        handOver.run();
      } finally {
        underWay.remove(partition, done);
        done.complete(null);
      }
    }, "partita-rejoin-hand-over-" + partition);
    waiter.setDaemon(true);
    waiter.start();
  }

  /** Waits until the hand-over of {@code partition} under way, if any, ended. */
  void await(int partition) {
    final CompletableFuture<Void> pending = underWay.get(partition);
    if (pending != null) {
      pending.join();
    }
  }
}
