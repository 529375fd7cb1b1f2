package org.partita.server.host;

import java.util.function.Consumer;
import org.partita.proto.txn.WorkItem;

/**
 * Recovery's replay of a copy's records with their multi-partition parts
 * logged prepared (docs/cluster.md, "Durability on a cluster"): a prepared
 * part is held until the next record of its partition says what became of
 * it. A decision rolling it back drops it; a decision committing it, or any
 * other record (logs written before decisions were logged), replays it; a
 * part still held at the end of the log is one reconciliation kept (some
 * copy logged its commit; otherwise its tail was dropped), so it replays.
 * Decisions themselves are passed over, but for one committing partition
 * 0's part with a client session's answer: it replays after its part (if
 * that was logged), to record the call.
 *
 * <p>Not thread-safe: one reader feeds it, from the starting thread.
 */
final class HeldParts {
  private final WorkItem[] held;
  private final Consumer<WorkItem> replay;

  /** @param replay runs one record on its copy */
  HeldParts(int partitions, Consumer<WorkItem> replay) {
    this.held = new WorkItem[partitions];
    this.replay = replay;
  }

  /**
   * Takes the next record of partition {@code p} that a copy this host
   * holds logged and no recovery dropped: a call, a part or a decision.
   * Returns false when the record itself is passed over (a decision).
   */
  boolean offer(int p, WorkItem record) {
    if (record.getKindCase() == WorkItem.KindCase.DECISION) {
      final WorkItem part = held[p];
      if (part != null && CopyTails.sameTxn(part.getMultiPartitionRun().getJoin().getCoordinator(),
          record.getDecision().getCoordinator())) {
        held[p] = null;
        if (record.getDecision().getCommit()) {
          replay.accept(part);
        }
      }
      if (ClusterRecovery.recordsCall(record)) {
        replay.accept(record);
        return true;
      }
      return false;
    }
    release(p);
    if (record.getKindCase() == WorkItem.KindCase.MULTI_PARTITION_RUN && record.getMultiPartitionRun().getPrepared()) {
      held[p] = record;
    } else {
      replay.accept(record);
    }
    return true;
  }

  /** Replays every part still held: the log ended with it undecided, and reconciliation kept it. */
  void finish() {
    for (int p = 0; p < held.length; p++) {
      release(p);
    }
  }

  private void release(int p) {
    if (held[p] != null) {
      replay.accept(held[p]);
      held[p] = null;
    }
  }
}
