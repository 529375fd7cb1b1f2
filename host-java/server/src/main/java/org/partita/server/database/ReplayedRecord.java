package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.proto.txn.MultiPartitionDecision;
import org.partita.server.txn.TxnHeader;

/**
 * A cluster copy's logged decision committing partition
 * {@link Deduplication#MULTI_PARTITION_RECORDS}'s part of a client
 * session's multi-partition call (docs/cluster.md, "Client
 * de-duplication"), which recovery runs again on that copy: it records the
 * call with the answer the decision carries (or without one, as its live
 * copies did for a call a coordinator committed after a failover), under
 * the time its live copies recorded it, so a call sent again after a
 * whole-cluster restart is answered (or refused as of unknown outcome), not
 * run again. The site adopts the decision's header as it
 * does for a {@link Replayed} item. A malformed answer is reported to
 * {@code failures} (recovery then refuses to start); {@code done} completes
 * once it ran.
 */
record ReplayedRecord(MultiPartitionDecision decision, TxnHeader header, Consumer<RuntimeException> failures,
    CompletableFuture<Void> done) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    Replayed.adopt(site, header, failures);
    try {
      // Without an answer when a coordinator committed it after a failover: a call sent again is refused.
      final ClientResponse answer = decision.getAnswerUnknown() ? null
          : DedupTable.decodeAnswer(decision.getAnswer().toByteArray());
      Deduplication.multiPartitionCommitted(site, decision.getClientId(), decision.getClientSequence(), answer,
          decision.getRecordedAtMicros());
    } catch (IllegalArgumentException e) {
      failures.accept(new IllegalStateException("cannot replay " + header.id() + " (the decision recording call "
          + decision.getClientSequence() + " of a client session) on partition " + site.partition() + ": "
          + e.getMessage(), e));
    } finally {
      done.complete(null);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    done.complete(null);
  }
}
