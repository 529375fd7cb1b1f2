package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * A part of a multi-partition transaction held prepared on a replica copy
 * (docs/cluster.md, "When a host dies mid-transaction"): the copy ran the
 * leader's batches and keeps the engine's transaction open, its site
 * waiting here, until the decision comes — the leader's decision item in
 * the partition's order, or, once a failover took the copy out of its
 * leader's order, the cluster's coordinator's answer
 * ({@link InDoubtResolver}). Only the first decision counts.
 *
 * <p>Thread-safe: {@link #decide} from any thread (the internal port's event
 * loop, the resolver), {@link #await} on the copy's site thread.
 */
final class PreparedHold {
  /**
   * How the part ends: commit or roll back; {@code header} and {@code done}
   * are the decision item's when the leader sent it, null when a
   * coordinator decided after a failover; {@code answer} the client
   * session's answer the decision item carries for partition 0's copies to
   * record (empty: none; docs/cluster.md, "Client de-duplication"), or
   * {@code answerUnknown}: the call to record without one (a coordinator's
   * commit after a failover, passed on by the promoted copy).
   */
  record Decision(boolean commit, TxnHeader header, ReplicaExecutor.Done done, com.google.protobuf.ByteString answer,
                  boolean answerUnknown) {
    /** A coordinator's decision after a failover (no item, no answer). */
    static Decision byCoordinator(boolean commit) {
      return new Decision(commit, null, null, com.google.protobuf.ByteString.EMPTY, false);
    }
  }

  private final TxnId txn;
  private final int partition;
  private final CompletableFuture<Decision> decision = new CompletableFuture<>();

  PreparedHold(TxnId txn, int partition) {
    this.txn = txn;
    this.partition = partition;
  }

  /** The coordinator's id of the transaction. */
  TxnId txn() {
    return txn;
  }

  int partition() {
    return partition;
  }

  /** Decides the part; false when it was decided before (this decision is ignored). */
  boolean decide(Decision outcome) {
    return decision.complete(outcome);
  }

  boolean decided() {
    return decision.isDone();
  }

  /** Waits for the decision. REQUIRES: on the copy's site thread. */
  Decision await() {
    return decision.join();
  }
}
