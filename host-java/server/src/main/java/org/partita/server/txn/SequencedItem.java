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
}
