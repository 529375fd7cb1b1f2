package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.proto.TableStatsList;
import org.partita.server.txn.TxnHeader;

/**
 * A read of the partition's table statistics, run between transactions.
 * Not sequenced: it changes nothing and is never logged.
 */
record SiteRead(CompletableFuture<TableStatsList> result) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader header) {
    try {
      result.complete(site.engine().tableStats());
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    result.completeExceptionally(new IllegalStateException(response.message()));
  }
}
