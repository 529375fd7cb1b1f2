package org.partita.server.database;

import org.partita.client.ClientResponse;
import org.partita.server.txn.Initiator;
import org.partita.server.txn.TxnHeader;

/**
 * The cut of a rejoin stream (docs/cluster.md, "Rejoin"), on the leader's
 * copy of a partition: fixes a copy-on-write snapshot between two
 * transactions, streamed to {@code sink} between the next ones (as
 * {@link SnapshotBegin} does), and tells {@code cut}, on the site thread
 * before any later item runs, the last sequence of the current epoch the
 * snapshot holds, the header of the last item it holds and the copy's
 * de-duplication table at the cut. Not sequenced.
 */
record RejoinBegin(SnapshotSink sink, RejoinCut cut) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    try {
      site.beginSnapshot(sink);
    } catch (RuntimeException e) {
      cut.refused(e.getMessage());
      return;
    }
    final Initiator initiator = site.initiator();
    final TxnHeader last = site.lastRunHeader();
    cut.taken(initiator.lastSequence(), last, site.dedup().encode());
  }

  @Override
  public void refuse(ClientResponse response) {
    cut.refused(response.message());
  }
}
