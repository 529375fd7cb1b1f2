package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * A checksum of every row of the partition's copy, made between two
 * transactions on the site's thread ({@link Site#checksum}). Not sequenced:
 * it changes nothing.
 */
record SiteChecksum(boolean leader, CompletableFuture<Database.CopyChecksum> result) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader header) {
    try {
      result.complete(site.checksum(leader));
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    result.completeExceptionally(new IllegalStateException(response.message()));
  }
}
