package org.partita.server.durability;

import org.partita.proto.ErrorCode;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The pipeline a durable host's partitions are opened with: immediate
 * while recovery replays the log (replayed items are already logged, and
 * their answers go to recovery, not to clients), then the command log from
 * {@link #switchTo} on. Thread-safe: the switch is published through a
 * volatile field. REQUIRES: {@link #switchTo} while no item is between
 * {@code sequenced} and {@code release} (after the replay finished, before
 * clients are served).
 */
public final class SwitchablePipeline implements CommitPipeline {
  private volatile CommitPipeline target = ImmediateCommitPipeline.INSTANCE;

  public void switchTo(CommitPipeline next) {
    target = next;
  }

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {
    target.sequenced(header, item);
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    target.release(header, item, answer);
  }

  @Override
  public void aborted(TxnHeader header) {
    target.aborted(header);
  }

  @Override
  public String refusal() {
    return target.refusal();
  }

  @Override
  public ErrorCode refusalCode() {
    return target.refusalCode();
  }
}
