package org.partita.server.database;

import org.partita.client.ClientResponse;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A partition's place in a multi-partition transaction: when the site
 * reaches this item (sequenced in the partition's order like any other) it
 * serves the coordinator through {@code participant} until released.
 */
record MultiPartitionJoin(MultiPartitionTxn txn, LocalParticipant participant) implements WorkItem, SequencedItem {
  @Override
  public void run(Site site, TxnHeader header) {
    participant.serve(site, header, this);
  }

  @Override
  public void refuse(ClientResponse response) {
    throw new IllegalStateException("a multi-partition join is queued with submit and never refused");
  }

  @Override
  public org.partita.proto.txn.WorkItem toProto(TxnHeader header) {
    return org.partita.proto.txn.WorkItem.newBuilder().setHeader(header.toProto())
        .setMultiPartition(txn.toProto()).build();
  }
}
