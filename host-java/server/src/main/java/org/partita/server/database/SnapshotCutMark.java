package org.partita.server.database;

import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A partition's cut of the snapshot {@code name} taken across the hosts of a
 * cluster (docs/durability.md, "On a cluster"): an item of its own in the
 * partition's order, sequenced by the leader between two transactions, which
 * travels whole to every other copy so that each copy fixes its snapshot at
 * the same place; its id is the cut every copy records. Changes no row; not
 * logged. Immutable.
 */
record SnapshotCutMark(String name) implements SequencedItem {
  @Override
  public WorkItem toProto(TxnHeader header) {
    return WorkItem.newBuilder().setHeader(header.toProto())
        .setSnapshotCut(org.partita.proto.txn.SnapshotCutMark.newBuilder().setName(name)).build();
  }
}
