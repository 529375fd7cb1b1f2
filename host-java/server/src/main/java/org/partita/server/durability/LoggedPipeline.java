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

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    final Both both = new Both(answer);
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

  /** The partition's own pipeline batches its hand-offs until its site runs dry: pass the moment on. */
  @Override
  public void siteIdle() {
    next.siteIdle();
  }

  @Override
  public boolean replicatesWork() {
    return next.replicatesWork();
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
