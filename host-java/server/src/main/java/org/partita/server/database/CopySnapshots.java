package org.partita.server.database;

import org.partita.server.txn.TxnId;

/**
 * Where a cluster host's copies write their part of a snapshot taken across
 * hosts (docs/durability.md, "On a cluster"): each copy, leader or replica,
 * asks for a sink when it reaches the partition's cut mark and streams its
 * chunks there. Implemented by the host (its data directory's snapshots).
 *
 * <p>Thread model: {@link #begin} on the copy's site thread; it must not block.
 */
public interface CopySnapshots {
  /**
   * The sink of partition {@code partition}'s copy on this host for the
   * snapshot {@code name}, cut at {@code cut} (the mark's id). Throws a
   * RuntimeException when this host cannot take it (the copy then takes no
   * snapshot, and the host's snapshot of that name fails).
   */
  SnapshotSink begin(String name, int partition, TxnId cut);

  /**
   * Completes once this host's part of snapshot {@code name} is durable, or
   * fails saying why (no copy of this host began it, or writing failed).
   * Any thread.
   */
  default java.util.concurrent.CompletableFuture<?> done(String name) {
    return java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException(
        "this host keeps no snapshot " + name));
  }

  /**
   * Told once every host holding a copy has its part of snapshot
   * {@code name} durable: marks this host's part so, durably (its command
   * log may be truncated up to it), and completes then; fails when this host
   * holds no complete part of it. Any thread.
   */
  default java.util.concurrent.CompletableFuture<?> doneOnEveryHost(String name) {
    return done(name);
  }
}
