package org.partita.server.database;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * The rows of the replicated tables in this partition's copy, as snapshot
 * chunks, taken between two transactions on the site's thread
 * ({@link Site#chunksOf}): the coordinator a host becomes after a failover
 * of partition 0 loads them into its merge engine (docs/cluster.md,
 * "Coordinator failover"). Not sequenced: it changes nothing.
 */
record ReplicatedTablesCopy(Set<String> tables, CompletableFuture<List<byte[]>> chunks) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader header) {
    try {
      chunks.complete(site.chunksOf(tables));
    } catch (RuntimeException e) {
      chunks.completeExceptionally(e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    chunks.completeExceptionally(new IllegalStateException(response.message()));
  }
}
