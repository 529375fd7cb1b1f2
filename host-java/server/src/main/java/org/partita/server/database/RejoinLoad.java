package org.partita.server.database;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * A joining host's load of a partition's rejoin snapshot (docs/cluster.md,
 * "Rejoin") into its empty replica copy: every chunk of {@code source}, as
 * the leader's stream delivers them ({@code chunkLoaded} told after each),
 * then {@code cut}, the header of the last item the snapshot holds, taken as
 * the last item this copy ran (so it follows it if it leads later), and the
 * leader's de-duplication table at the cut ({@code dedupTable}; empty: none
 * came), so calls sent again from before the cut are recognised here too. Completes
 * {@code done} with the chunks loaded, or with the failure. Not sequenced:
 * it runs before the items after the cut.
 */
record RejoinLoad(SnapshotSource source, TxnHeader cut, byte[] dedupTable, Runnable chunkLoaded,
                  CompletableFuture<Long> done)
    implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    try {
      long chunks = 0;
      for (byte[] chunk = source.next(); chunk != null; chunk = source.next()) {
        site.engine().loadSnapshotChunk(chunk);
        chunks++;
        chunkLoaded.run();
      }
      if (cut != null) {
        site.replicated(cut);
      }
      if (dedupTable.length > 0) {
        site.dedup().load(dedupTable);
      }
      done.complete(chunks);
    } catch (IOException | RuntimeException e) {
      done.completeExceptionally(e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    done.completeExceptionally(new IllegalStateException(response.message()));
  }
}
