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
 * record it. Immutable.
 */
record PartDecision(MultiPartitionTxn txn, boolean commit, byte[] answer, long recordedAtMicros)
    implements SequencedItem {
  @Override
  public WorkItem toProto(TxnHeader header) {
    final MultiPartitionDecision.Builder decision = MultiPartitionDecision.newBuilder()
        .setCoordinator(txn.header().toProto()).setCommit(commit);
    if (answer != null) {
      decision.setAnswer(com.google.protobuf.ByteString.copyFrom(answer)).setClientId(txn.invocation().clientId())
          .setClientSequence(txn.invocation().clientSequence()).setRecordedAtMicros(recordedAtMicros);
    }
    return WorkItem.newBuilder().setHeader(header.toProto()).setDecision(decision).build();
  }

  @Override
  public boolean carriesRecord() {
    return answer != null;
  }

  @Override
  public boolean commitsPreparedPart() {
    return commit;
  }
}
