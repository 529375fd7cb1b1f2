package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.cluster.ReportLog;
import org.partita.proto.cluster.VoidTail;
import org.partita.server.topology.PartitionMap;

/**
 * How a whole-cluster restart reconciles the copies of each partition
 * (docs/cluster.md, "Durability on a cluster", decisions 1 and 2), as a
 * function of the map and the recovering hosts' reports alone, so every
 * voter applies it alike.
 *
 * <p>The rules, per partition: the copies that rebuild it are those of the
 * map (its last epoch) whose logs reach back to the partition's beginning,
 * that is, not given by a rejoin stream ({@code streamed}: their log starts
 * at the stream's cut). The partition restarts from the longest prefix
 * common to those copies: the lowest of their last logged transactions
 * (every acknowledged transaction is on each of them in sync mode; what one
 * logged beyond it was never answered), moved before a multi-partition
 * part left in doubt at it when no copy logged that transaction's commit
 * ({@link #undoubted}). A {@link VoidTail} records the cut,
 * and the partition moves to epoch + 1 on those copies, led by its leader
 * when it is one of them, else by the lowest host id among them. A
 * partition with no such copy cannot be rebuilt from the logs: the whole
 * reconciliation is refused naming it, and nothing changes.
 *
 * <p>Stateless; any thread.
 */
final class RecoveryReconciliation {
  /** The reconciled map and the tails it drops, or why it could not be made. */
  record Outcome(PartitionMap map, List<VoidTail> voidTails, List<Integer> droppedCopies, String failure) {}

  private RecoveryReconciliation() {}

  /**
   * True iff every copy of every partition of {@code map} reported:
   * {@code reports} holds, by host id, the round's reports (each of the
   * host's current incarnation).
   */
  static boolean complete(PartitionMap map, Map<Integer, ReportLog> reports) {
    for (int p = 0; p < map.partitionCount(); p++) {
      for (int host : map.replicas(p).replicaHosts()) {
        if (!reports.containsKey(host)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Reconciles every partition of {@code map} from {@code reports}
   * (REQUIRES: {@link #complete}); {@code streamed} holds the copies a rejoin
   * gave, as {@link #copyKey} values. The new map has {@code map}'s version
   * plus one.
   */
  static Outcome reconcile(PartitionMap map, Map<Integer, ReportLog> reports, Set<Long> streamed) {
    final List<PartitionMap.Replicas> partitions = new ArrayList<>(map.partitionCount());
    final List<VoidTail> voids = new ArrayList<>();
    final List<Integer> dropped = new ArrayList<>();
    final Set<TxnKey> committed = committed(reports.values());
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas old = map.replicas(p);
      final int partition = p;
      final List<Integer> kept = old.replicaHosts().stream()
          .filter(h -> !streamed.contains(copyKey(partition, h))).toList();
      if (kept.isEmpty()) {
        return new Outcome(null, List.of(), List.of(), "partition " + p + " cannot be rebuilt from the command logs:"
            + " each of its copies (hosts " + old.replicaHosts() + ") was given by a rejoin stream, and a rejoined"
            + " copy's log begins at the stream's cut, not at the partition's beginning");
      }
      LogTail cut = null;
      for (int host : kept) {
        final LogTail tail = tailOf(reports.get(host).getTailsList(), p);
        if (cut == null || compare(tail, cut) < 0) {
          cut = tail;
        }
      }
      cut = undoubted(cut, kept.stream().map(h -> tailOf(reports.get(h).getTailsList(), partition)).toList(),
          committed);
      final long next = old.epoch() + 1;
      voids.add(VoidTail.newBuilder().setPartition(p).setCutEpoch(cut.getEpoch()).setCutSequence(cut.getSequence())
          .setNextEpoch(next).build());
      final int leader = kept.contains(old.leaderHost()) ? old.leaderHost()
          : kept.stream().mapToInt(Integer::intValue).min().getAsInt();
      partitions.add(new PartitionMap.Replicas(p, leader, kept, next));
      if (kept.size() < old.replicaHosts().size()) {
        dropped.add(p);
      }
    }
    return new Outcome(PartitionMap.of(map.version() + 1, MetadataState.bucketTable(map), partitions), voids,
        dropped, null);
  }

  /**
   * The cut {@code cut} of a partition whose copies reported {@code tails},
   * moved before a part of a multi-partition transaction that a copy logged
   * prepared with no decision, at the cut, when no copy of any partition
   * logged that transaction's commit ({@code committed}): the coordinator
   * never decided it, or its decision reached no log, so no partition
   * applied it and it is dropped from every one. When some copy logged its
   * commit, every copy of every partition logged the part prepared before
   * (the coordinator commits only once each prepared it, and in sync mode a
   * copy answers its prepare only once the part is on its disk), so it is
   * kept and replayed on every partition. A copy that logged the commit also
   * reports it as its last: while a part is in doubt on one copy, no later
   * multi-partition transaction can commit (it needs that copy's prepare).
   */
  static LogTail undoubted(LogTail cut, List<LogTail> tails, Set<TxnKey> committed) {
    for (LogTail tail : tails) {
      if (tail.hasInDoubt() && compare(tail, cut) == 0 && !committed.contains(TxnKey.of(tail.getInDoubt()))) {
        return cut.toBuilder().clearInDoubt().clearLastCommit().setSequence(cut.getSequence() - 1).build();
      }
    }
    return cut;
  }

  /** Every multi-partition transaction some copy reported as the last whose commit it logged. */
  static Set<TxnKey> committed(Collection<ReportLog> reports) {
    final Set<TxnKey> out = new HashSet<>();
    for (ReportLog report : reports) {
      for (LogTail tail : report.getTailsList()) {
        if (tail.hasLastCommit()) {
          out.add(TxnKey.of(tail.getLastCommit()));
        }
      }
    }
    return out;
  }

  /** A transaction's id as a value, for sets. */
  record TxnKey(int partition, long epoch, long sequence) {
    static TxnKey of(org.partita.proto.txn.TxnHeader header) {
      return new TxnKey(header.getPartition(), header.getEpoch(), header.getSequence());
    }
  }

  /** The tail {@code tails} names for {@code partition}, or (0, 0) when its log holds nothing of it. */
  static LogTail tailOf(Collection<LogTail> tails, int partition) {
    for (LogTail t : tails) {
      if (t.getPartition() == partition) {
        return t;
      }
    }
    return LogTail.newBuilder().setPartition(partition).build();
  }

  private static int compare(LogTail a, LogTail b) {
    final int byEpoch = Long.compareUnsigned(a.getEpoch(), b.getEpoch());
    return byEpoch != 0 ? byEpoch : Long.compareUnsigned(a.getSequence(), b.getSequence());
  }

  /** One copy (partition, host) as one value, for sets. */
  static long copyKey(int partition, int host) {
    return ((long) partition << 32) | (host & 0xffffffffL);
  }
}
