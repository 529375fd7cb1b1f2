package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * A partition's part of the snapshot marker: fixes the engine's cut between
 * two transactions, gives {@code sink} the partition's de-duplication table
 * at that cut and starts streaming to it; completes
 * {@code cut} with the last transaction the partition ran (null: none). Not
 * sequenced: it changes no row, and its place in the partition's order is
 * recorded by that id.
 */
record SnapshotBegin(SnapshotSink sink, CompletableFuture<TxnId> cut) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader header) {
    try {
      site.beginDurableSnapshot(sink);
      cut.complete(site.initiator().lastRun());
    } catch (RuntimeException e) {
      cut.completeExceptionally(e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    cut.completeExceptionally(new IllegalStateException(response.message()));
  }
}
