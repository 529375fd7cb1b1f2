package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.TxnHeader;

/**
 * A site of this host taking part in a multi-partition transaction. The
 * coordinator queues a {@link MultiPartitionJoin} on the site; when the site
 * reaches it (its place in the partition's order) it serves this
 * participant's mailbox — fragment batches, commit or rollback, a new
 * catalog — until the coordinator releases it. Requests sent before the
 * site arrives wait in the mailbox. They come from this host's coordinator
 * ({@link #execute}) or, for a partition led here in a cluster whose
 * coordinator is on another host, as whole engine batches
 * ({@link #executeBatch}); with replicas, what the partition ran goes to
 * them once it committed ({@link ReplicatedPart}), or, when the coordinator
 * asks for the prepare step ({@link #prepare}), before: the part travels
 * as prepared and its commit or roll back follows as an item of its own
 * ({@link PartDecision}).
 *
 * <p>Thread model: requests are added by the coordinator thread (or the
 * thread serving another host's coordinator) and served
 * on the site's thread; the mailbox is the hand-off between them.
 */
final class LocalParticipant implements Participant {
  /** One message of the mailbox. */
  private sealed interface Request permits Fragment, Batch, Prepare, Finish, ApplyCatalog, Release {}

  private record Prepare(CompletableFuture<Void> answer) implements Request {}

  private record Fragment(FragmentRequest request, CompletableFuture<ByteBuffer> answer) implements Request {}

  /** A whole engine batch request the coordinator's host wrote (a partition led here, coordinated elsewhere). */
  private record Batch(byte[] request, CompletableFuture<ByteBuffer> answer) implements Request {}

  private record Finish(boolean commit, CompletableFuture<Void> answer) implements Request {}

  private record ApplyCatalog(CatalogSnapshot next, byte[] engineCatalog, CompletableFuture<Void> answer)
      implements Request {}

  private record Release() implements Request {}

  private final int partition;
  /** Where the host keeps what its copies hold (outcome queries after a failover); null on a single host. */
  private final MultiPartitionParts parts;
  private final BlockingQueue<Request> mailbox = new LinkedBlockingQueue<>();
  private final CompletableFuture<Void> released = new CompletableFuture<>();
  /** The part's state for outcome queries (any thread): PREPARED once the prepare step left. */
  private volatile FailoverOutcome.PartState state = FailoverOutcome.PartState.OPEN;
  /** Site-confined: the part went to the replicas as prepared; its end goes as a decision item. */
  private boolean preparedOnCopies;
  /**
   * The answer a client session's call that wrote gets, set by the
   * coordinator before it commits (partition
   * {@link Deduplication#MULTI_PARTITION_RECORDS} only): this copy records
   * it when the part commits, and its decision item carries it to the
   * other copies. Null: nothing to record.
   */
  private volatile ClientResponse answerToRecord;
  /** Site-confined: the encoded answer this copy recorded as its part committed (for the decision item). */
  private byte[] recordedAnswer;
  /**
   * Completes when the site reaches the join: on partition
   * {@link Deduplication#MULTI_PARTITION_RECORDS}, what its table answers a
   * client session's call it knows; null to run the call.
   */
  private final CompletableFuture<ClientResponse> earlier = new CompletableFuture<>();
  /** Completes with why the part will never run here ({@link #refuse}); incomplete while it may. */
  private final CompletableFuture<String> refusal = new CompletableFuture<>();
  /** Told of the catalog a schema change part committed on this copy (its host adopts it); null: nobody. */
  private final Consumer<CatalogSnapshot> catalogCommitted;
  /** Site-confined: the catalog before the first one this part took (a roll back restores it); null: none taken. */
  private CatalogSnapshot catalogBefore;

  LocalParticipant(int partition) {
    this(partition, null, null);
  }

  LocalParticipant(int partition, MultiPartitionParts parts) {
    this(partition, parts, null);
  }

  /** @param catalogCommitted told of the catalog a schema change committed here (null: nobody) */
  LocalParticipant(int partition, MultiPartitionParts parts, Consumer<CatalogSnapshot> catalogCommitted) {
    this.partition = partition;
    this.parts = parts;
    this.catalogCommitted = catalogCommitted;
  }

  /** What this part is now, for an outcome query (any thread). */
  FailoverOutcome.PartState state() {
    return state;
  }

  /** True once the prepare step was asked for (any thread): the part may be held on the other copies. */
  boolean prepareAsked() {
    return state != FailoverOutcome.PartState.OPEN;
  }

  @Override
  public int partition() {
    return partition;
  }

  @Override
  public CompletableFuture<ByteBuffer> execute(FragmentRequest request) {
    final CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
    post(new Fragment(request, answer));
    return answer;
  }

  /** As {@link #execute}, for a batch another host wrote ({@code BatchRequestWriter.toByteArray}). */
  CompletableFuture<ByteBuffer> executeBatch(byte[] request) {
    final CompletableFuture<ByteBuffer> answer = new CompletableFuture<>();
    post(new Batch(request, answer));
    return answer;
  }

  @Override
  public CompletableFuture<Void> prepare() {
    final CompletableFuture<Void> answer = new CompletableFuture<>();
    post(new Prepare(answer));
    return answer;
  }

  /**
   * Where the site's de-duplication table stood on the call when the site
   * reached the join: the answer its session's call gets instead of
   * running (partition {@link Deduplication#MULTI_PARTITION_RECORDS} only),
   * or null. Any thread.
   */
  CompletableFuture<ClientResponse> earlierAnswer() {
    return earlier;
  }

  /**
   * The call's answer, to record when the part commits. REQUIRES: called
   * before {@link #finish}, from the coordinator's thread.
   */
  void recordOnCommit(ClientResponse answer) {
    answerToRecord = answer;
  }

  @Override
  public CompletableFuture<Void> finish(boolean commit) {
    final CompletableFuture<Void> answer = new CompletableFuture<>();
    post(new Finish(commit, answer));
    return answer;
  }

  @Override
  public CompletableFuture<Void> applyCatalog(CatalogSnapshot next, byte[] engineCatalog) {
    final CompletableFuture<Void> answer = new CompletableFuture<>();
    post(new ApplyCatalog(next, engineCatalog, answer));
    return answer;
  }

  @Override
  public CompletableFuture<Void> release() {
    post(new Release());
    return released;
  }

  /** Leaves {@code request} for the site; a refused part answers it at once. */
  private void post(Request request) {
    mailbox.add(request);
    if (refusal.isDone()) {
      answerRefused();
    }
  }

  /**
   * The site stopped leading its partition before it reached the join (a
   * leader hand-off, {@link Site#stepDown}): the part never runs here. Every
   * step asked of it, queued or later, is answered at once: a roll back and
   * the release complete (nothing ran), anything else fails NOT_LEADER, so
   * the coordinator rolls the transaction back everywhere. Any thread.
   */
  void refuse(String why) {
    refusal.complete(why);
    earlier.complete(null);
    answerRefused();
  }

  /**
   * Runs {@code then} once the part is refused ({@link #refuse}), on the
   * refusing thread (at once if it was refused already); never for a part
   * that runs. It must not block.
   */
  void whenRefused(Runnable then) {
    refusal.thenRun(then);
  }

  private void answerRefused() {
    for (Request r = mailbox.poll(); r != null; r = mailbox.poll()) {
      final org.partita.server.error.ServerException notRun = new org.partita.server.error.ServerException(
          org.partita.proto.ErrorCode.ERROR_CODE_NOT_LEADER, "partition " + partition + " did not take part: "
          + refusal.getNow(null) + "; the transaction was rolled back");
      if (r instanceof Release) {
        released.complete(null);
      } else if (r instanceof Finish f && !f.commit()) {
        f.answer().complete(null);
      } else if (r instanceof Finish f) {
        f.answer().completeExceptionally(notRun);
      } else if (r instanceof Prepare p) {
        p.answer().completeExceptionally(notRun);
      } else if (r instanceof Fragment f) {
        f.answer().completeExceptionally(notRun);
      } else if (r instanceof Batch b) {
        b.answer().completeExceptionally(notRun);
      } else if (r instanceof ApplyCatalog a) {
        a.answer().completeExceptionally(notRun);
      }
    }
  }

  /**
   * Serves the mailbox on {@code site}'s thread until released, then hands
   * the end of the transaction to the partition's commit pipeline.
   * REQUIRES: on the site's thread.
   */
  void serve(Site site, TxnHeader header, MultiPartitionJoin join) {
    final CommitPipeline pipeline = site.initiator().pipeline();
    // A partition with replicas keeps what it ran: they run the same batches (docs/cluster.md).
    final ReplicatedPart.Recorder recorder = pipeline.replicatesWork() ? new ReplicatedPart.Recorder() : null;
    // The site may wait on the mailbox a while: what it released before goes on now.
    pipeline.siteIdle();
    final RunningCall running = site.runningCall();
    final org.partita.server.txn.TxnId txn = join.txn().header().id();
    if (parts != null) {
      parts.opened(txn, partition, this);
    }
    running.begin(join.txn().invocation());
    earlier.complete(partition == Deduplication.MULTI_PARTITION_RECORDS && join.txn().invocation() != null
        ? Deduplication.earlierAnswer(site, join.txn().invocation()) : null);
    try {
      serveUntilReleased(site, header, join, running, recorder);
    } finally {
      running.end();
    }
    if (preparedOnCopies && state == FailoverOutcome.PartState.PREPARED) {
      // Released undecided (never asked to finish): the part did not commit here.
      finish(site, header, join, new Finish(false, new CompletableFuture<>()), recorder);
    }
    // A new catalog taken and released without a commit did not commit here either.
    endCatalogChange(site, false);
    if (parts != null) {
      parts.closed(txn, partition, state == FailoverOutcome.PartState.COMMITTED);
    }
    if (preparedOnCopies) {
      // The part is on every copy, prepared: its end follows it in the partition's order.
      final PartDecision decision = new PartDecision(join.txn(), state == FailoverOutcome.PartState.COMMITTED,
          recordedAnswer, header.timestampMicros());
      pipeline.decide(site.initiator().nextHeader(site.catalogVersion()), decision, recorder.committedHash(),
          () -> released.complete(null));
      pipeline.siteIdle();
    } else if (recorder == null) {
      pipeline.release(header, join, () -> released.complete(null));
    } else if (recordedAnswer == null) {
      pipeline.release(header, recorder.part(join.txn()), recorder.committedHash(),
          () -> released.complete(null));
    } else {
      // No prepare step (K = 0): the part, then a decision item of its own carrying the call this copy
      // recorded, so that the log holds the record and a replay records the call again (docs/cluster.md,
      // "Client de-duplication"). Released once both are.
      pipeline.release(header, recorder.part(join.txn()), recorder.committedHash(), () -> { });
      final PartDecision decision = new PartDecision(join.txn(), true, recordedAnswer, header.timestampMicros());
      pipeline.decide(site.initiator().nextHeader(site.catalogVersion()), decision, 0, () -> released.complete(null));
      pipeline.siteIdle();
    }
  }

  private void serveUntilReleased(Site site, TxnHeader header, MultiPartitionJoin join, RunningCall running,
      ReplicatedPart.Recorder recorder) {
    for (Request r = take(); !(r instanceof Release); r = take()) {
      if (r instanceof Fragment f) {
        runFragment(site.engine(), running, recorder, writer -> f.request().writeTo(writer, false), f.answer());
      } else if (r instanceof Batch b) {
        runFragment(site.engine(), running, recorder, writer -> writer.load(b.request()), b.answer());
      } else if (r instanceof Prepare p) {
        prepare(site.initiator().pipeline(), header, join, recorder, p.answer());
      } else if (r instanceof Finish f) {
        finish(site, header, join, f, recorder);
      } else if (r instanceof ApplyCatalog a) {
        apply(site, a, recorder);
      }
    }
  }

  private Request take() {
    try {
      return mailbox.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Release();
    }
  }

  private static void runFragment(PartitionEngine engine, RunningCall running, ReplicatedPart.Recorder recorder,
      Consumer<BatchRequestWriter> write, CompletableFuture<ByteBuffer> answer) {
    try {
      running.checkNotCancelled();
      write.accept(engine.request());
    } catch (Throwable t) {
      answer.completeExceptionally(t);
      return;
    }
    try {
      final ByteBuffer results = engine.execute();
      if (recorder != null) {
        recorder.ran(engine.request().lastRequestWithoutLimitOrHint(), engine.writeHash());
      }
      answer.complete(ResultSets.copy(results));
    } catch (Throwable t) {
      if (recorder != null) {
        recorder.failed(engine.request().lastRequestWithoutLimitOrHint());
      }
      answer.completeExceptionally(t);
    }
  }

  /**
   * The prepare step on the site's thread: with replicas, the part as run
   * so far goes to each as prepared and {@code answer} completes once every
   * one holds it (or fails with OUTCOME_UNKNOWN when this host loses the
   * partition first); without, at once.
   */
  private void prepare(CommitPipeline pipeline, TxnHeader header, MultiPartitionJoin join,
      ReplicatedPart.Recorder recorder, CompletableFuture<Void> answer) {
    if (state == FailoverOutcome.PartState.OPEN) {
      state = FailoverOutcome.PartState.PREPARED;
    }
    if (recorder == null || preparedOnCopies) {
      answer.complete(null);
      return;
    }
    preparedOnCopies = true;
    pipeline.prepare(header, recorder.prepared(join.txn()), recorder.hash(), () -> answer.complete(null),
        lost -> answer.completeExceptionally(new org.partita.server.error.ServerException(lost.errorCode(),
            "partition " + partition + " could not prepare its part: " + lost.message())));
    pipeline.siteIdle();
  }

  private void finish(Site site, TxnHeader header, MultiPartitionJoin join, Finish f,
      ReplicatedPart.Recorder recorder) {
    final PartitionEngine engine = site.engine();
    try {
      if (state == FailoverOutcome.PartState.OPEN || state == FailoverOutcome.PartState.PREPARED) {
        state = f.commit() ? FailoverOutcome.PartState.COMMITTED : FailoverOutcome.PartState.ROLLED_BACK;
        if (state == FailoverOutcome.PartState.COMMITTED) {
          record(site, header, join, recorder != null);
        }
      }
      if (recorder != null) {
        recorder.finished(f.commit() && (engine.inTransaction() || catalogBefore != null));
      }
      endCatalogChange(site, f.commit());
      if (engine.inTransaction()) {
        if (f.commit()) {
          engine.commit();
        } else {
          engine.rollback();
        }
      }
      f.answer().complete(null);
    } catch (Throwable t) {
      f.answer().completeExceptionally(t);
    }
  }

  /**
   * Records the committed call in the site's table when the coordinator
   * gave its answer to record (docs/cluster.md, "Client de-duplication"),
   * under the part's header's timestamp, as each other copy does when the
   * decision item reaches it. With {@code logged} (a cluster copy that logs
   * or replicates its parts) the answer is kept encoded for the decision
   * item that carries it to the other copies and to the log.
   */
  private void record(Site site, TxnHeader header, MultiPartitionJoin join, boolean logged) {
    final ClientResponse answer = answerToRecord;
    final org.partita.server.txn.Invocation invocation = join.txn().invocation();
    if (answer == null || invocation == null || partition != Deduplication.MULTI_PARTITION_RECORDS) {
      return;
    }
    Deduplication.multiPartitionCommitted(site, invocation.clientId(), invocation.clientSequence(), answer,
        header.timestampMicros());
    if (logged) {
      recordedAnswer = DedupTable.encodeAnswer(answer);
    }
  }

  /**
   * Takes the catalog of a schema change on this copy. The first one taken
   * is remembered: a roll back restores the catalog before it
   * ({@link #endCatalogChange}), and with replicas the part's write hash
   * becomes the new catalog's, so the part travels whole and is logged.
   */
  private void apply(Site site, ApplyCatalog a, ReplicatedPart.Recorder recorder) {
    try {
      final CatalogSnapshot before = site.catalogSnapshot();
      site.takeCatalog(a.next(), a.engineCatalog());
      if (catalogBefore == null && a.next().version() > before.version()) {
        catalogBefore = before;
        if (recorder != null) {
          recorder.tookCatalog(CatalogVersions.writeHash(a.next()));
        }
      }
      a.answer().complete(null);
    } catch (Throwable t) {
      a.answer().completeExceptionally(t);
    }
  }

  /**
   * The end of a part that took a new catalog: a commit tells the host
   * ({@code catalogCommitted}); a roll back puts the catalog before it back.
   */
  private void endCatalogChange(Site site, boolean commit) {
    if (catalogBefore == null) {
      return;
    }
    final CatalogSnapshot before = catalogBefore;
    catalogBefore = null;
    if (commit) {
      if (catalogCommitted != null) {
        catalogCommitted.accept(site.catalogSnapshot());
      }
    } else if (site.catalogVersion() != before.version()) {
      site.takeCatalog(before);
    }
  }
}
