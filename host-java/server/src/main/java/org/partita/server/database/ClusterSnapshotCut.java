package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * The cut of a snapshot across hosts on the partition's leader
 * (docs/durability.md, "On a cluster"), run between two of its
 * transactions: sequences a {@link SnapshotCutMark}, fixes this copy's
 * snapshot there into the host's sink, and sends the mark to the other
 * copies, which cut at it too; {@code cut} gets the mark's id once every
 * copy began its snapshot (or why this copy could not).
 */
record ClusterSnapshotCut(String name, CopySnapshots snapshots, CompletableFuture<TxnId> cut) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    if (snapshots == null) {
      cut.completeExceptionally(new IllegalStateException("host of partition " + site.partition()
          + " takes no snapshots (no data directory)"));
      return;
    }
    final String refusal = site.initiator().pipeline().refusal();
    if (refusal != null) {
      cut.completeExceptionally(new IllegalStateException("partition " + site.partition() + ": " + refusal));
      return;
    }
    final TxnHeader header = site.initiator().nextHeader(site.catalogVersion());
    final CommitPipeline pipeline = site.initiator().pipeline();
    try {
      site.beginCopySnapshot(snapshots, name, header.id());
    } catch (RuntimeException e) {
      // The mark still goes out: the replicas' snapshots go on, this copy's fails.
      cut.completeExceptionally(e);
    }
    pipeline.cutSnapshot(header, new SnapshotCutMark(name), () -> cut.complete(header.id()));
    pipeline.siteIdle();
  }

  @Override
  public void refuse(ClientResponse response) {
    cut.completeExceptionally(new IllegalStateException(response.message()));
  }
}
