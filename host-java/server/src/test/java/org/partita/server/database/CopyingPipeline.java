package org.partita.server.database;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.partita.client.ClientResponse;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * For tests of two hosts in one process: a leader's commit pipeline that
 * carries each item to the copy on host {@code to}. An item that changed
 * nothing is answered at once (a marker); any other, and every prepared
 * part, decision and snapshot cut mark, once the copy ran it. A copy whose
 * host {@code gone} names is skipped (this leader is then the partition's
 * only copy). A hash that differs from the leader's, a refusal, or a full
 * queue is added to {@code failures}. Tests override a step to hold or
 * watch it and call {@link #send}.
 */
class CopyingPipeline implements CommitPipeline {
  private final Database[] hosts;
  private final int to;
  private final IntPredicate gone;
  private final List<String> failures;

  CopyingPipeline(Database[] hosts, int to, IntPredicate gone, List<String> failures) {
    this.hosts = hosts;
    this.to = to;
    this.gone = gone;
    this.failures = failures;
  }

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {}

  @Override
  public boolean replicatesWork() {
    return true;
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    answer.run();
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    if (writeHash == 0) {
      answer.run();
    } else {
      send(item.toProto(header), writeHash, answer);
    }
  }

  @Override
  public void prepare(TxnHeader header, SequencedItem part, long writeHash, Runnable prepared,
      Consumer<ClientResponse> lost) {
    send(part.toProto(header), writeHash, prepared);
  }

  @Override
  public void decide(TxnHeader header, SequencedItem decision, long writeHash, Runnable answer) {
    send(decision.toProto(header), writeHash, answer);
  }

  @Override
  public void cutSnapshot(TxnHeader header, SequencedItem mark, Runnable answer) {
    send(mark.toProto(header), 0, answer);
  }

  /** Runs {@code item} on the copy, then {@code then} (at once when that copy's host is gone). */
  final void send(org.partita.proto.txn.WorkItem item, long writeHash, Runnable then) {
    if (gone.test(to)) {
      then.run();
      return;
    }
    final boolean queued = hosts[to].offerReplicated(item, new ReplicaExecutor.Done() {
      @Override
      public void ran(long ownHash) {
        if (ownHash != writeHash) {
          failures.add("host " + to + " ran " + item.getHeader() + " with hash " + ownHash + ", its leader "
              + writeHash);
        }
        then.run();
      }

      @Override
      public void failed(String reason) {
        failures.add(reason);
      }
    });
    if (!queued) {
      failures.add("host " + to + "'s copy had no room for " + item.getHeader());
    }
  }
}
