package org.partita.server.database;

import org.partita.proto.txn.MultiPartitionDecision;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The outcome of a partition's part prepared just before in its order
 * (docs/cluster.md, "When a host dies mid-transaction"): an item of its own,
 * sequenced by the partition's leader once the coordinator committed or
 * rolled the part back, which every copy of the partition applies in the
 * same place of its order ({@link PreparedHold}); on partition 0 it may
 * carry the answer of a client session's call for the copies to record
 * ({@link Deduplication#multiPartitionCommitted}; null: none), with the
 * call's session, handle and the transaction time it is recorded under
 * ({@code recordedAtMicros}), so that a logged decision alone lets recovery
 * record it; or, decided by a coordinator after a failover, the call to
 * record without an answer ({@code answerUnknown}). Immutable.
 */
record PartDecision(MultiPartitionTxn txn, boolean commit, byte[] answer, boolean answerUnknown,
                    long recordedAtMicros) implements SequencedItem {
  /** A decision that carries no call to record, or one with its answer ({@code answer}, null: none). */
  PartDecision(MultiPartitionTxn txn, boolean commit, byte[] answer, long recordedAtMicros) {
    this(txn, commit, answer, false, recordedAtMicros);
  }

  /**
   * A coordinator's commit after a failover, passed on by partition 0's
   * promoted copy: the call of {@code txn}'s invocation is recorded without
   * an answer on every copy (nobody alive may know it). REQUIRES: the
   * transaction's invocation.
   */
  static PartDecision committedWithoutAnswer(MultiPartitionTxn txn, long recordedAtMicros) {
    return new PartDecision(txn, true, null, true, recordedAtMicros);
  }

  @Override
  public WorkItem toProto(TxnHeader header) {
    final MultiPartitionDecision.Builder decision = MultiPartitionDecision.newBuilder()
        .setCoordinator(txn.header().toProto()).setCommit(commit);
    if (carriesRecord()) {
      decision.setClientId(txn.invocation().clientId()).setClientSequence(txn.invocation().clientSequence())
          .setRecordedAtMicros(recordedAtMicros).setAnswerUnknown(answerUnknown);
      if (answer != null) {
        decision.setAnswer(com.google.protobuf.ByteString.copyFrom(answer));
      }
    }
    return WorkItem.newBuilder().setHeader(header.toProto()).setDecision(decision).build();
  }

  @Override
  public boolean carriesRecord() {
    return answer != null || answerUnknown;
  }

  @Override
  public boolean commitsPreparedPart() {
    return commit;
  }
}
