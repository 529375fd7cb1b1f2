package org.partita.server.durability;

import org.partita.proto.txn.Aborted;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The log record saying that the transaction of its header was rolled back
 * by its time limit or a cancel (CommitPipeline#aborted), so that recovery
 * skips it. Stateless.
 */
enum AbortMarker implements SequencedItem {
  INSTANCE;

  @Override
  public WorkItem toProto(TxnHeader header) {
    return WorkItem.newBuilder().setHeader(header.toProto()).setAborted(Aborted.getDefaultInstance()).build();
  }
}
