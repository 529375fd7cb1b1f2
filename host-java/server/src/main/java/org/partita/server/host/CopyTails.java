package org.partita.server.host;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.txn.TxnHeader;
import org.partita.proto.txn.WorkItem;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnId;

/**
 * What a recovering host reports of each copy its command log holds
 * (docs/cluster.md, "Durability on a cluster"), gathered from the log's
 * records in order: the copy's last transaction; the part of a
 * multi-partition transaction it logged prepared with no decision after it
 * (in doubt: the copy's last transaction, since a partition takes no other
 * work while a part is prepared); and the multi-partition transaction whose
 * commit it logged last (a decision that commits a prepared part, or a part
 * logged committed without the prepare step). Reconciliation keeps an
 * in-doubt part only when some copy logged its commit.
 *
 * <p>Not thread-safe: one reader fills it, from the starting thread.
 */
final class CopyTails {
  private final TxnId[] last;
  private final TxnHeader[] inDoubt;
  private final TxnHeader[] lastCommit;

  CopyTails(int partitions) {
    last = new TxnId[partitions];
    inDoubt = new TxnHeader[partitions];
    lastCommit = new TxnHeader[partitions];
  }

  /**
   * Takes {@code record} (with id {@code id}) of a copy this host held, in
   * the log's order. REQUIRES: no recovery dropped it, and its partition is
   * below the count given.
   */
  void add(WorkItem record, TxnId id) {
    final int p = id.partition();
    switch (record.getKindCase()) {
      case SINGLE_PARTITION -> advance(p, id);
      case MULTI_PARTITION_RUN -> {
        advance(p, id);
        final TxnHeader coordinator = record.getMultiPartitionRun().getJoin().getCoordinator();
        if (record.getMultiPartitionRun().getPrepared()) {
          inDoubt[p] = coordinator;
        } else {
          lastCommit[p] = coordinator;
        }
      }
      case DECISION -> {
        decided(p, record.getDecision().getCoordinator(), record.getDecision().getCommit());
        if (ClusterRecovery.recordsCall(record)) {
          advance(p, id);
        }
      }
      default -> { }
    }
  }

  /**
   * Raises partition {@code p}'s last to {@code cut}, the cut of a snapshot
   * part of the copy on this host's disk, when that is later than its log's
   * last: the copy's state up to the cut is durable here even where the log
   * no longer holds it (truncated) or never synced it (async). A part left in
   * doubt before the cut is not: a snapshot is cut between two
   * multi-partition transactions, so its decision came before the cut.
   */
  void atLeast(int p, TxnId cut) {
    if (last[p] == null || cut.compareTo(last[p]) > 0) {
      last[p] = cut;
      inDoubt[p] = null;
    }
  }

  /** The tails to report, for each copy {@code map} gives {@code hostId}, in partition order. */
  List<LogTail> tails(PartitionMap map, int hostId) {
    final List<LogTail> tails = new ArrayList<>();
    for (int p = 0; p < last.length; p++) {
      if (!map.replicas(p).replicaHosts().contains(hostId)) {
        continue;
      }
      final LogTail.Builder tail = LogTail.newBuilder().setPartition(p);
      if (last[p] != null) {
        tail.setEpoch(last[p].epoch()).setSequence(last[p].sequence());
      }
      if (inDoubt[p] != null) {
        tail.setInDoubt(inDoubt[p]);
      }
      if (lastCommit[p] != null) {
        tail.setLastCommit(lastCommit[p]);
      }
      tails.add(tail.build());
    }
    return tails;
  }

  /**
   * A counted record after the copy's last: a record that follows a part
   * left undecided is read as its commit (logs written before decisions
   * were logged).
   */
  private void advance(int p, TxnId id) {
    if (inDoubt[p] != null) {
      lastCommit[p] = inDoubt[p];
      inDoubt[p] = null;
    }
    if (last[p] == null || id.compareTo(last[p]) > 0) {
      last[p] = id;
    }
  }

  private void decided(int p, TxnHeader coordinator, boolean commit) {
    if (inDoubt[p] == null || !sameTxn(inDoubt[p], coordinator)) {
      return;
    }
    if (commit) {
      lastCommit[p] = coordinator;
    }
    inDoubt[p] = null;
  }

  /** Whether two headers name the same transaction (same partition, epoch and sequence). */
  static boolean sameTxn(TxnHeader a, TxnHeader b) {
    return a.getPartition() == b.getPartition() && a.getEpoch() == b.getEpoch() && a.getSequence() == b.getSequence();
  }
}
