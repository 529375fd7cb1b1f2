package org.partita.server.database;

import org.partita.client.ClientResponse;
import org.partita.server.txn.TxnHeader;

/**
 * Everything a site runs: a typed item, never a closure, so that what runs
 * can be written to a log, sent to a replica, replayed, and named in
 * statistics. Items that take a place in the partition's order implement
 * {@link org.partita.server.txn.SequencedItem} and are given a TxnHeader by
 * the partition's initiator as they leave the queue; the others (reads of
 * statistics) change nothing and get none.
 */
sealed interface WorkItem permits ProcedureCall, AdHocCall, MultiPartitionJoin, SiteRead, Replayed, ReplayedPart, ReplayedRecord,
    SnapshotBegin, SnapshotLoad, ReplicaRun, SiteChecksum, LeadInEpoch, ReplicatedTablesCopy, RejoinBegin, RejoinLoad,
    ClusterSnapshotCut, ReplicaSnapshotCut, LeaderHandOffHold {
  /**
   * Runs the item on {@code site}'s thread. {@code header} is the item's
   * header when it is sequenced, else null. Answers its caller (through the
   * initiator's commit pipeline when sequenced) and never throws.
   */
  void run(Site site, TxnHeader header);

  /** Answers the caller with {@code response} without running (the site is stopping). */
  void refuse(ClientResponse response);
}
