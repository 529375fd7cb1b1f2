package org.partita.server.txn;

import org.partita.proto.txn.WorkItem;

/**
 * A work item that takes a place in its partition's order and so gets a
 * {@link TxnHeader}: single-partition calls and each partition's part of a
 * multi-partition transaction (schema changes included). Reads of
 * statistics and other work that changes nothing are not sequenced.
 */
public interface SequencedItem {
  /**
   * The item in the form a command log writes and a replica receives
   * (proto/txn.proto), under {@code header}.
   */
  WorkItem toProto(TxnHeader header);

  /**
   * The call a single-partition item runs, whose {@link Invocation#writeProto}
   * is its log record's body (the log writes it without building the
   * protobuf objects); null for other items, which are logged through
   * {@link #toProto}.
   */
  default Invocation singlePartitionInvocation() {
    return null;
  }

  /**
   * True for a decision on partition 0's part that carries a client
   * session's answer to record (docs/cluster.md, "Client de-duplication"):
   * logged even when its part changed nothing, so that recovery records it.
   */
  default boolean carriesRecord() {
    return false;
  }

  /**
   * True iff the item is a partition's committed part of a multi-partition
   * transaction as its leader ran it (the engine batches its replicas run):
   * a cluster host's log keeps it as a record of its own.
   */
  default boolean multiPartitionPart() {
    return false;
  }

  /**
   * True iff the item is the decision that commits the part prepared just
   * before it in its partition's order (docs/cluster.md, "When a host dies
   * mid-transaction"): the moment a cluster host's log records that part.
   */
  default boolean commitsPreparedPart() {
    return false;
  }
}
