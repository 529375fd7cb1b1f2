package org.partita.server.durability;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The commit pipeline of a partition a cluster host leads with a command
 * log (docs/durability.md, "On a cluster"): every item goes to the host's
 * log as on one host (its record at {@code sequenced}, an abort marker at
 * {@code aborted}) and to the partition's own pipeline ({@code next}: the
 * replication pipeline, or an immediate one), and its answer leaves only
 * once both let it go: in sync mode once its record, and every record its
 * partition logged before it, is on this host's disk, and once every
 * replica acknowledged it (each replica acknowledges only once the item is
 * on its own disk). The two waits run side by side: the leader's
 * {@code fdatasync} overlaps the round trip to the replicas.
 *
 * <p>Answers still leave in sequence order: each of the two releases its
 * answers in order, so the later of the two for one item comes no earlier
 * than the later of the two for the item before it. Thread model: the
 * {@link CommitPipeline} calls on the partition's site thread; answers run
 * on whichever thread completes the second wait. Immutable.
 */
public final class LoggedPipeline implements CommitPipeline {
  private final CommitPipeline log;
  private final CommitPipeline next;
  // The part prepared and logged, not yet decided; the partition's thread only.
  private SequencedItem preparedPart;

  /**
   * @param log the host's command log (shared by every partition of the host)
   * @param next the partition's own pipeline, which sees every item after the log
   */
  public LoggedPipeline(CommitPipeline log, CommitPipeline next) {
    this.log = log;
    this.next = next;
  }

  /** The partition's own pipeline behind the log. */
  public CommitPipeline next() {
    return next;
  }

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {
    log.sequenced(header, item);
    next.sequenced(header, item);
  }

  @Override
  public void aborted(TxnHeader header) {
    log.aborted(header);
    next.aborted(header);
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    final Both both = new Both(answer);
    log.release(header, item, both::done);
    next.release(header, item, both::done);
  }

  /**
   * A partition's part of a multi-partition transaction ({@code item}: its
   * engine batches, as its replicas get them). A part that changed something
   * ({@code writeHash} not 0) is logged as a record of its own after the
   * partition's join, the record recovery on a cluster replays on this copy
   * (docs/durability.md, "On a cluster"); its answer waits for it too.
   */
  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    final Both both = new Both(answer);
    if (writeHash != 0 && item.multiPartitionPart()) {
      log.sequenced(header, item);
    }
    log.release(header, item, both::done);
    next.release(header, item, writeHash, both::done);
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, ClientResponse response,
      Consumer<ClientResponse> done) {
    // The partition's pipeline may answer otherwise (OUTCOME_UNKNOWN when deposed): its word is the one sent.
    final ClientResponse[] outcome = {response};
    final Both both = new Both(() -> done.accept(outcome[0]));
    log.release(header, item, both::done);
    next.release(header, item, writeHash, response, r -> {
      outcome[0] = r;
      both.done();
    });
  }

  /**
   * A prepared part that changed something is logged as a record of its own
   * (after its join), and its prepared answer waits for the record as every
   * answer does: in sync mode the coordinator decides to commit only once
   * every copy of every partition holds the part on its disk, so recovery
   * can apply it on each of them (docs/cluster.md, "Durability on a
   * cluster"). A partition holds at most one prepared part at a time (its
   * site waits behind it), so one is remembered, for its decision.
   */
  @Override
  public void prepare(TxnHeader header, SequencedItem part, long writeHash, Runnable prepared,
      Consumer<ClientResponse> lost) {
    if (writeHash == 0 || !part.multiPartitionPart()) {
      next.prepare(header, part, writeHash, prepared, lost);
      return;
    }
    preparedPart = part;
    final Both both = new Both(prepared);
    log.sequenced(header, part);
    log.release(header, part, both::done);
    next.prepare(header, part, writeHash, both::done, lost);
  }

  /**
   * The decision on a part logged prepared is logged after it (commit or
   * roll back: recovery replays the part unless it was rolled back), before
   * the decision's answer, which waits behind the log as every answer does;
   * so is a decision carrying a client session's answer to record, whose
   * part may have changed nothing (recovery records the call from it).
   */
  @Override
  public void decide(TxnHeader header, SequencedItem decision, long writeHash, Runnable answer) {
    final Both both = new Both(answer);
    if (preparedPart != null || decision.carriesRecord()) {
      log.sequenced(header, decision);
    }
    preparedPart = null;
    log.release(header, decision, both::done);
    next.decide(header, decision, writeHash, both::done);
  }

  /** A snapshot's cut mark is not logged: it waits for the records before it, then for the other copies. */
  @Override
  public void cutSnapshot(TxnHeader header, SequencedItem mark, Runnable answer) {
    final Both both = new Both(answer);
    log.release(header, mark, both::done);
    next.cutSnapshot(header, mark, both::done);
  }

  /** The partition's own pipeline batches its hand-offs until its site runs dry: pass the moment on. */
  @Override
  public void siteIdle() {
    next.siteIdle();
  }

  /** Always: the log keeps each part a multi-partition transaction ran here, replicas or not. */
  @Override
  public boolean replicatesWork() {
    return true;
  }

  @Override
  public String refusal() {
    final String full = log.refusal();
    return full != null ? full : next.refusal();
  }

  @Override
  public ErrorCode refusalCode() {
    return log.refusal() != null ? log.refusalCode() : next.refusalCode();
  }

  /** Runs an answer once both waits released it; the second caller runs it, on its thread. */
  private static final class Both {
    private final AtomicInteger left = new AtomicInteger(2);
    private final Runnable answer;

    Both(Runnable answer) {
      this.answer = answer;
    }

    void done() {
      if (left.decrementAndGet() == 0) {
        answer.run();
      }
    }
  }
}
