package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * One partition as a multi-partition transaction sees it: it joined the
 * transaction at a point of its own order and, until {@link #release}, runs
 * only what the coordinator sends it. Requests and answers are messages
 * ({@link FragmentRequest}, result-set bytes), so a partition on another
 * host is a second implementation of this interface; {@link LocalParticipant}
 * is the one for a site of this host.
 *
 * <p>Methods may be called from the coordinator's thread only, in order; the
 * futures complete on the participant's thread.
 */
interface Participant {
  int partition();

  /** Runs {@code request}; completes with the result set (a private copy) or the engine's error. */
  CompletableFuture<ByteBuffer> execute(FragmentRequest request);

  /**
   * The prepare step (docs/cluster.md, "When a host dies mid-transaction"):
   * puts the partition's part, as run so far, on every copy of the
   * partition, held there without being committed; completes once every
   * copy holds it. A partition with one copy completes at once.
   */
  CompletableFuture<Void> prepare();

  /** Commits (or rolls back) the partition's part of the transaction. */
  CompletableFuture<Void> finish(boolean commit);

  /** Makes {@code next} the partition's catalog (a schema change's step); its engine takes the new catalog. */
  CompletableFuture<Void> applyCatalog(CatalogSnapshot next, byte[] engineCatalog);

  /**
   * Ends the transaction on this partition, which goes back to its queue;
   * the future completes when the partition's commit pipeline lets the
   * transaction's outcome be seen.
   */
  CompletableFuture<Void> release();
}
