package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * Holds a led copy's site between two items while its leadership is handed
 * to another copy (docs/cluster.md, "Leader rebalancing"): run after every
 * item queued before it, it hands on what the commit pipeline batched,
 * completes {@code holding}, and keeps the site from taking its next item
 * until {@code release} completes or {@code maxMillis} passed. Calls that
 * arrive meanwhile wait in the queue; once the copy stepped down they are
 * refused NOT_LEADER under the new map. Not sequenced; nothing to answer.
 */
record LeaderHandOffHold(CompletableFuture<Void> holding, CompletableFuture<Void> release, long maxMillis)
    implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    site.handOnBatched();
    holding.complete(null);
    try {
      release.get(maxMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Released by the bound: the hand-off gave up or its follower stalled; the site goes on leading.
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    holding.completeExceptionally(new IllegalStateException(response.message()));
  }
}
