package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.LogTail;
import org.partita.proto.txn.MultiPartitionDecision;
import org.partita.proto.txn.MultiPartitionJoin;
import org.partita.proto.txn.MultiPartitionRun;
import org.partita.proto.txn.ProcedureInvocation;
import org.partita.proto.txn.TxnHeader;
import org.partita.proto.txn.WorkItem;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnId;

/**
 * What a copy's log of multi-partition parts logged prepared makes a
 * whole-cluster restart report ({@link CopyTails}) and replay
 * ({@link HeldParts}): a part followed by its commit is the copy's last
 * commit and replays; one followed by its roll back never replays; one left
 * undecided at the end is reported in doubt and replays only when
 * reconciliation kept it.
 */
class RecoveryPartsTest {
  private static final TxnHeader T1 = coordinator(40);
  private static final TxnHeader T2 = coordinator(41);

  private static TxnHeader coordinator(long sequence) {
    return TxnHeader.newBuilder().setPartition(TxnId.MULTI_PARTITION).setEpoch(2).setSequence(sequence).build();
  }

  private static TxnHeader header(long sequence) {
    return TxnHeader.newBuilder().setPartition(0).setEpoch(3).setSequence(sequence).build();
  }

  private static WorkItem call(long sequence) {
    return WorkItem.newBuilder().setHeader(header(sequence))
        .setSinglePartition(ProcedureInvocation.newBuilder().setClientId(1).setClientSequence(sequence)).build();
  }

  private static WorkItem prepared(long sequence, TxnHeader coordinator) {
    return WorkItem.newBuilder().setHeader(header(sequence)).setMultiPartitionRun(MultiPartitionRun.newBuilder()
        .setJoin(MultiPartitionJoin.newBuilder().setCoordinator(coordinator)).setPrepared(true)).build();
  }

  private static WorkItem decision(long sequence, TxnHeader coordinator, boolean commit) {
    return WorkItem.newBuilder().setHeader(header(sequence)).setDecision(MultiPartitionDecision.newBuilder()
        .setCoordinator(coordinator).setCommit(commit)).build();
  }

  private static LogTail tail(List<WorkItem> log) {
    final CopyTails tails = new CopyTails(1);
    for (WorkItem record : log) {
      tails.add(record, org.partita.server.txn.TxnHeader.fromProto(record.getHeader()).id());
    }
    return tails.tails(PartitionMap.singleHost(1, 0), 0).get(0);
  }

  private static List<Long> replayed(List<WorkItem> log) {
    final List<Long> out = new ArrayList<>();
    final HeldParts parts = new HeldParts(1, r -> out.add(r.getHeader().getSequence()));
    for (WorkItem record : log) {
      parts.offer(0, record);
    }
    parts.finish();
    return out;
  }

  @Test
  void shouldReplayACommittedPartAndReportItAsTheLastCommit() {
    final List<WorkItem> log = List.of(call(1), prepared(2, T1), decision(3, T1, true), call(4));
    final LogTail tail = tail(log);
    assertEquals(4, tail.getSequence());
    assertFalse(tail.hasInDoubt());
    assertEquals(T1, tail.getLastCommit());
    assertEquals(List.of(1L, 2L, 4L), replayed(log));
  }

  @Test
  void shouldNeverReplayAPartItsDecisionRolledBack() {
    final List<WorkItem> log = List.of(prepared(2, T1), decision(3, T1, true), prepared(4, T2),
        decision(5, T2, false), call(6));
    final LogTail tail = tail(log);
    assertEquals(T1, tail.getLastCommit(), "a roll back is no commit");
    assertFalse(tail.hasInDoubt());
    assertEquals(List.of(2L, 6L), replayed(log));
  }

  @Test
  void shouldReportAPartLeftUndecidedAsInDoubtAtTheCopysTail() {
    final List<WorkItem> log = List.of(prepared(2, T1), decision(3, T1, true), prepared(4, T2));
    final LogTail tail = tail(log);
    assertEquals(4, tail.getSequence(), "the part in doubt is the copy's last transaction");
    assertTrue(tail.hasInDoubt());
    assertEquals(T2, tail.getInDoubt());
    assertEquals(T1, tail.getLastCommit());
    assertEquals(List.of(2L, 4L), replayed(log), "kept by reconciliation (else its tail was dropped): replayed");
  }

  @Test
  void shouldPassOverADecisionOnAPartItDoesNotHold() {
    final HeldParts parts = new HeldParts(1, r -> { });
    assertFalse(parts.offer(0, decision(3, T1, true)), "a decision is passed over");
    assertTrue(parts.offer(0, call(4)));
  }

  @Test
  void shouldReportASnapshotsCutWhenItIsLaterThanTheLog() {
    final CopyTails tails = new CopyTails(1);
    for (WorkItem record : List.of(call(1), prepared(2, T1))) {
      tails.add(record, org.partita.server.txn.TxnHeader.fromProto(record.getHeader()).id());
    }
    tails.atLeast(0, new TxnId(0, 3, 1));
    LogTail tail = tails.tails(PartitionMap.singleHost(1, 0), 0).get(0);
    assertEquals(2, tail.getSequence(), "an earlier snapshot changes nothing");
    assertTrue(tail.hasInDoubt());
    tails.atLeast(0, new TxnId(0, 3, 9));
    tail = tails.tails(PartitionMap.singleHost(1, 0), 0).get(0);
    assertEquals(9, tail.getSequence(), "a truncated log: the part's cut is the copy's last");
    assertFalse(tail.hasInDoubt(), "a snapshot is cut between multi-partition transactions: nothing is in doubt");
    final CopyTails empty = new CopyTails(1);
    empty.atLeast(0, new TxnId(0, 3, 5));
    assertEquals(5, empty.tails(PartitionMap.singleHost(1, 0), 0).get(0).getSequence(),
        "a log holding nothing of the copy");
  }

  /** A decision committing partition 0's part of a session's call, with its answer to record. */
  private static WorkItem recording(long sequence, TxnHeader coordinator) {
    return WorkItem.newBuilder().setHeader(header(sequence)).setDecision(MultiPartitionDecision.newBuilder()
        .setCoordinator(coordinator).setCommit(true).setAnswer(com.google.protobuf.ByteString.copyFromUtf8("a"))
        .setClientId(1L << 63).setClientSequence(7).setRecordedAtMicros(1_000)).build();
  }

  /**
   * Partition 0's part of a session's call that wrote only elsewhere is not logged, but its decision carries the
   * answer to record: it replays (to record the call) and counts in the copy's tail, so a reconciliation cut at
   * the copies' last record keeps it. Before, a logged decision was always passed over and never counted.
   */
  @Test
  void shouldReplayAndCountADecisionThatRecordsACallWhosePartWasNotLogged() {
    final List<WorkItem> log = List.of(call(1), recording(2, T1));
    assertEquals(2, tail(log).getSequence());
    assertEquals(List.of(1L, 2L), replayed(log));
  }

  /**
   * A new coordinator's commit after a failover, passed on by partition 0's promoted copy with the session's call
   * to record without an answer: replayed and counted like a decision with one. Before, it carried no call and
   * was passed over, so after a whole-cluster restart the call sent again could run again.
   */
  @Test
  void shouldReplayAndCountADecisionThatRecordsACallWithoutAnAnswer() {
    final WorkItem withoutAnswer = WorkItem.newBuilder().setHeader(header(3)).setDecision(
        MultiPartitionDecision.newBuilder().setCoordinator(T1).setCommit(true).setAnswerUnknown(true)
            .setClientId(1L << 63).setClientSequence(8).setRecordedAtMicros(1_000)).build();
    assertTrue(ClusterRecovery.recordsCall(withoutAnswer));
    final List<WorkItem> log = List.of(call(1), prepared(2, T1), withoutAnswer);
    assertEquals(3, tail(log).getSequence());
    assertEquals(List.of(1L, 2L, 3L), replayed(log));
  }

  @Test
  void shouldReplayADecisionThatRecordsACallAfterItsPart() {
    final List<WorkItem> log = List.of(prepared(1, T1), recording(2, T1), call(3));
    final LogTail tail = tail(log);
    assertEquals(3, tail.getSequence());
    assertEquals(T1, tail.getLastCommit());
    assertFalse(tail.hasInDoubt());
    assertEquals(List.of(1L, 2L, 3L), replayed(log));
  }
}
