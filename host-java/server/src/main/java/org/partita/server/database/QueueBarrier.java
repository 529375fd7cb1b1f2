package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * Completes {@code passed} on the site thread once every item queued before
 * it ran (a rejoin's epoch switch: docs/cluster.md, "Rejoin"); what the
 * future's dependents do runs there, before the next item. Not sequenced.
 */
record QueueBarrier(CompletableFuture<Void> passed) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    passed.complete(null);
  }

  @Override
  public void refuse(ClientResponse response) {
    passed.completeExceptionally(new IllegalStateException(response.message()));
  }
}
