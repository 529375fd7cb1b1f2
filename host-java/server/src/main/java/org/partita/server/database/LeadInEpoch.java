package org.partita.server.database;

import org.partita.client.ClientResponse;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.TxnHeader;

/**
 * Switches a copy of a partition to sequencing its work itself in a new
 * epoch behind a new commit pipeline ({@link Database#lead}, failover on a
 * cluster host, a rejoin's new epoch): runs on the copy's site after every
 * item queued before it, then {@code switched} in the same step, before the
 * site takes its next item. Not sequenced itself; nothing to answer.
 */
record LeadInEpoch(long epoch, CommitPipeline pipeline, Runnable switched) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    site.lead(epoch, pipeline);
    switched.run();
  }

  @Override
  public void refuse(ClientResponse response) {
    // A stopping site: nothing runs after this anyway.
  }
}
