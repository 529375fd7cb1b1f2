package org.partita.server.txn;

import org.partita.proto.txn.WorkItem;

/**
 * Runs, on this host's copy of a partition that another host leads, the
 * items the leader ran (docs/cluster.md, "Data plane"): each under the
 * leader's header (its timestamp, seed and catalog version), without a time
 * limit, in the order offered. The database implements it for its replica
 * sites; the replication layer feeds it.
 *
 * <p>Thread-safe; never blocks.
 */
public interface ReplicaExecutor {
  /**
   * Queues {@code item} (a {@code single_partition} item) on the copy of its
   * header's partition. Returns false iff that copy's queue is full (nothing
   * was queued; offer it again once an earlier item has run). Otherwise
   * {@code done} is told exactly once, on the copy's thread.
   *
   * @throws IllegalArgumentException when this host holds no replica of the item's partition
   */
  boolean offer(WorkItem item, Done done);

  /** The outcome of one offered item. */
  interface Done {
    /** The item ran; {@code writeHash} is its write hash as it ended (0: it changed nothing). */
    void ran(long writeHash);

    /** The item could not be run at all (it does not decode, or its procedure is unknown here). */
    void failed(String reason);

    /**
     * True once the copy stopped (a write hash differed): an item still
     * queued is then dropped without running and without a word to this.
     */
    default boolean cancelled() {
      return false;
    }
  }
}
