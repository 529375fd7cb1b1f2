package org.partita.server.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * Recovery's load of one partition from a snapshot: every chunk of
 * {@code source} into the site's empty engine (indexes built as rows arrive;
 * views loaded from their own chunks, or rebuilt from an older stream without
 * them), then its client de-duplication table at the cut when it holds
 * one ({@link SnapshotSource#dedupTable}), then the cut taken as the
 * partition's last transaction run.
 * Chunks of replicated tables also go to {@code replicated} (the
 * coordinator keeps a copy of those tables). Completes {@code done} with the
 * chunks loaded. Not sequenced: it runs before any transaction.
 */
record SnapshotLoad(SnapshotSource source, TxnId cut, Consumer<byte[]> replicated, CompletableFuture<Long> done)
    implements WorkItem {
  @Override
  public void run(Site site, TxnHeader header) {
    try {
      long chunks = 0;
      for (byte[] chunk = source.next(); chunk != null; chunk = source.next()) {
        load(site, chunk, chunks);
        if (replicated != null) {
          replicated.accept(chunk);
        }
        chunks++;
      }
      loadDedupTable(site);
      if (cut != null) {
        site.initiator().restoreCut(cut);
      }
      done.complete(chunks);
    } catch (IOException e) {
      done.completeExceptionally(new UncheckedIOException(e));
    } catch (RuntimeException e) {
      done.completeExceptionally(e);
    }
  }

  /**
   * Loads the partition's de-duplication table at the cut, when the source
   * holds one, before the log after the cut is replayed (which goes on
   * recording from there); a table that does not load fails the load, named
   * by partition and where it came from.
   */
  private void loadDedupTable(Site site) throws IOException {
    final byte[] table = source.dedupTable();
    if (table == null) {
      return;
    }
    try {
      site.dedup().load(table);
    } catch (RuntimeException e) {
      throw new IllegalStateException("partition " + site.partition() + ", " + source.dedupTableAt() + ": "
          + e.getMessage(), e);
    }
  }

  /** Loads one chunk; a refusal names where the chunk came from. */
  private void load(Site site, byte[] chunk, long number) {
    try {
      site.engine().loadSnapshotChunk(chunk);
    } catch (RuntimeException e) {
      throw new IllegalStateException("partition " + site.partition() + ", " + source.lastChunkAt(number) + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    done.completeExceptionally(new IllegalStateException(response.message()));
  }
}
