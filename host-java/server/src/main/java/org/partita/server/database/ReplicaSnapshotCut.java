package org.partita.server.database;

import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.TxnHeader;

/**
 * A snapshot cut mark from the partition's leader, on this host's replica
 * copy (docs/durability.md, "On a cluster"): the copy fixes its own
 * snapshot here, between the same two items as its leader, into the host's
 * sink for the snapshot, and acknowledges once the records before it are
 * released by the host's replica log (the mark itself is not logged). A
 * copy that cannot take the snapshot says so to the sink's owner and still
 * acknowledges: the partition's rows are untouched either way.
 */
record ReplicaSnapshotCut(Database database, org.partita.proto.txn.WorkItem item, ReplicaExecutor.Done done)
    implements WorkItem {
  private static final Logger LOG = Logger.getLogger(ReplicaSnapshotCut.class.getName());

  @Override
  public void run(Site site, TxnHeader ignored) {
    if (done.cancelled()) {
      return;
    }
    final TxnHeader header = TxnHeader.fromProto(item.getHeader());
    final CopySnapshots snapshots = database.copySnapshots();
    if (snapshots == null) {
      LOG.warning("partition " + site.partition() + "'s copy takes no part in snapshot "
          + item.getSnapshotCut().getName() + ": this host takes no snapshots");
    } else {
      try {
        site.beginCopySnapshot(snapshots, item.getSnapshotCut().getName(), header.id());
      } catch (RuntimeException e) {
        LOG.warning("partition " + site.partition() + "'s copy cannot take snapshot "
            + item.getSnapshotCut().getName() + ": " + e.getMessage());
      }
    }
    site.replicated(header);
    database.replicaLog().release(header, new SnapshotCutMark(item.getSnapshotCut().getName()), () -> done.ran(0));
  }

  @Override
  public void refuse(ClientResponse response) {
    done.failed("snapshot cut " + TxnHeader.fromProto(item.getHeader()).id() + " refused: " + response.message());
  }
}
