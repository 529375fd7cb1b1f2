package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.cluster.ReportLog;
import org.partita.proto.cluster.VoidTail;
import org.partita.proto.txn.TxnHeader;
import org.partita.server.topology.PartitionMap;

/**
 * How a whole-cluster restart cuts partitions around a multi-partition
 * transaction whose parts the copies logged prepared
 * ({@link RecoveryReconciliation#reconcile}): kept on every partition when
 * some copy logged its commit, dropped from every partition otherwise, so it
 * is never applied on one partition and not on another. Two partitions,
 * partition 0 on hosts 0 and 1, partition 1 on hosts 1 and 2, epoch 3;
 * transaction T (coordinator 65535:2:40) is partition 0's 3:20 and
 * partition 1's 3:30.
 */
class RecoveryReconciliationTest {
  private static final TxnHeader T = TxnHeader.newBuilder().setPartition(65535).setEpoch(2).setSequence(40).build();
  private static final TxnHeader EARLIER = T.toBuilder().setSequence(39).build();

  private static PartitionMap map() {
    final PartitionMap buckets = PartitionMap.singleHost(2, 0);
    return PartitionMap.of(4, MetadataState.bucketTable(buckets), List.of(
        new PartitionMap.Replicas(0, 0, List.of(0, 1), 3), new PartitionMap.Replicas(1, 1, List.of(1, 2), 3)));
  }

  private static LogTail tail(int partition, long sequence, TxnHeader inDoubt, TxnHeader lastCommit) {
    final LogTail.Builder tail = LogTail.newBuilder().setPartition(partition).setEpoch(3).setSequence(sequence);
    if (inDoubt != null) {
      tail.setInDoubt(inDoubt);
    }
    if (lastCommit != null) {
      tail.setLastCommit(lastCommit);
    }
    return tail.build();
  }

  /** Reconciles {@link #map} from each host's tails (no copy a rejoin gave). */
  private static RecoveryReconciliation.Outcome reconcile(List<LogTail> host0, List<LogTail> host1,
      List<LogTail> host2) {
    final Map<Integer, ReportLog> reports = Map.of(0, report(0, host0), 1, report(1, host1), 2, report(2, host2));
    return RecoveryReconciliation.reconcile(map(), reports, Set.of());
  }

  private static ReportLog report(int host, List<LogTail> tails) {
    return ReportLog.newBuilder().setHostId(host).setIncarnation(10 + host).addAllTails(tails).build();
  }

  private static long cutOf(RecoveryReconciliation.Outcome outcome, int partition) {
    for (VoidTail v : outcome.voidTails()) {
      if (v.getPartition() == partition) {
        assertEquals(3, v.getCutEpoch());
        return v.getCutSequence();
      }
    }
    throw new AssertionError("no cut for partition " + partition);
  }

  @Test
  void shouldKeepATransactionInDoubtOnOnePartitionWhenAnotherLoggedItsCommit() {
    // Partition 0's copies both logged T's commit and went on to 3:22; partition 1's decision reached no log.
    final var outcome = reconcile(
        List.of(tail(0, 22, null, T)),
        List.of(tail(0, 22, null, T), tail(1, 30, T, EARLIER)),
        List.of(tail(1, 30, T, EARLIER)));
    assertNull(outcome.failure());
    assertEquals(22, cutOf(outcome, 0));
    assertEquals(30, cutOf(outcome, 1), "T's part on partition 1 is kept, to be applied as on partition 0");
  }

  @Test
  void shouldDropATransactionFromEveryPartitionWhenNoCopyLoggedItsCommit() {
    // Every part prepared and logged, no decision logged anywhere: the coordinator's word was lost with it.
    final var outcome = reconcile(
        List.of(tail(0, 20, T, EARLIER)),
        List.of(tail(0, 20, T, EARLIER), tail(1, 30, T, EARLIER)),
        List.of(tail(1, 30, T, EARLIER)));
    assertEquals(19, cutOf(outcome, 0), "T's part on partition 0 is dropped");
    assertEquals(29, cutOf(outcome, 1), "and on partition 1");
  }

  @Test
  void shouldKeepAPartOneCopyLeftInDoubtWhenTheOtherCopyLoggedItsCommit() {
    // Partition 1's leader (host 1) logged T's commit, its replica (host 2) crashed before logging it.
    final var outcome = reconcile(
        List.of(tail(0, 20, T, EARLIER)),
        List.of(tail(0, 20, T, EARLIER), tail(1, 30, null, T)),
        List.of(tail(1, 30, T, EARLIER)));
    assertEquals(20, cutOf(outcome, 0), "committed: kept on partition 0, whose copies never logged the decision");
    assertEquals(30, cutOf(outcome, 1));
  }

  @Test
  void shouldDropAPartInDoubtBeyondTheCutWithTheRestOfTheTail() {
    // Host 1's copy of partition 0 logged T's part prepared; host 0's stopped at 3:19, before it.
    final var outcome = reconcile(
        List.of(tail(0, 19, null, EARLIER)),
        List.of(tail(0, 20, T, EARLIER), tail(1, 30, T, EARLIER)),
        List.of(tail(1, 30, T, EARLIER)));
    assertEquals(19, cutOf(outcome, 0));
    assertEquals(29, cutOf(outcome, 1), "not committed anywhere: dropped from partition 1 too");
  }
}
