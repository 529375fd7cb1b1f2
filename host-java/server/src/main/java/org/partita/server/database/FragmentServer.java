package org.partita.server.database;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentDone;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.proto.cluster.RemoteError;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.TxnHeader;

/**
 * Serves the coordinator's steps for the partitions this host leads when
 * the cluster's coordinator is on another host (docs/cluster.md,
 * "Multi-partition transactions"): a join queues a
 * {@link MultiPartitionJoin} on the partition's site with a
 * {@link LocalParticipant} for the transaction, whose mailbox then takes the
 * batches, the commit or roll back and the release; each step is answered
 * when the participant did it (a release once the partition's commit
 * pipeline lets the outcome be seen, so after its replicas ran it). A step
 * for a partition this host does not lead, a transaction it never joined
 * or a malformed join is answered with an error naming it; nothing here
 * throws at the caller.
 *
 * <p>Thread model: {@link #serve} from any thread (the internal port's
 * event loop); the steps run in arrival order on one thread of their own,
 * which may wait for room in a site's queue, never on the event loop.
 */
final class FragmentServer implements AutoCloseable {
  private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(FragmentServer.class.getName());
  /** One partition's part in one transaction. */
  private record Key(long epoch, long sequence, int partition) {}

  /**
   * An open part: its participant, the coordinator's host, the schema change it joined (null: a call or
   * statement), whether that host told it to commit.
   */
  private static final class Part {
    final LocalParticipant participant;
    final int coordinatorHost;
    final org.partita.proto.txn.SchemaChange schemaChange;
    boolean commitAsked;

    Part(LocalParticipant participant, int coordinatorHost, org.partita.proto.txn.SchemaChange schemaChange) {
      this.participant = participant;
      this.coordinatorHost = coordinatorHost;
      this.schemaChange = schemaChange;
    }
  }

  private final int hostId;
  private final IntFunction<Site> leaderSites;
  private final MultiPartitionParts parts;
  private final java.util.function.Supplier<CopySnapshots> snapshots;
  /** The host's catalog versions (schema changes), and who hears of one committed here; null: none. */
  private final CatalogVersions catalogs;
  private final Consumer<CatalogSnapshot> catalogCommitted;
  /** Finishes the parts left prepared by a coordinator that is gone; null: none (they roll back). */
  private final InDoubtResolver resolver;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "partita-fragments"));
  // Confined to the thread.
  private final Map<Key, Part> open = new HashMap<>();
  /** The host whose steps are taken since the last failover of partition 0 (-1: any, before the first). */
  private int coordinator = -1;

  /** @param leaderSites partition -> its site when this host leads it, else null */
  FragmentServer(int hostId, IntFunction<Site> leaderSites) {
    this(hostId, leaderSites, null, null, () -> null, null, null);
  }

  /**
   * @param parts where the host keeps what its copies hold (null: nowhere)
   * @param resolver asks the new coordinator about parts left prepared (null: they roll back)
   * @param snapshots where this host's copies write a snapshot taken across hosts (null inside: nowhere)
   * @param catalogs the host's catalog versions, which a schema change's catalog is compiled into (null: schema
   *     changes are refused)
   * @param catalogCommitted told of the catalog a schema change committed on a copy here
   */
  FragmentServer(int hostId, IntFunction<Site> leaderSites, MultiPartitionParts parts, InDoubtResolver resolver,
      java.util.function.Supplier<CopySnapshots> snapshots, CatalogVersions catalogs,
      Consumer<CatalogSnapshot> catalogCommitted) {
    this.snapshots = snapshots;
    this.catalogs = catalogs;
    this.catalogCommitted = catalogCommitted;
    this.hostId = hostId;
    this.leaderSites = leaderSites;
    this.parts = parts;
    this.resolver = resolver;
  }

  /** Runs {@code request}; {@code answer} gets its outcome, exactly once, on any thread. */
  void serve(FragmentRequest request, Consumer<FragmentAnswer> answer) {
    try {
      thread.execute(() -> step(request, answer));
    } catch (RejectedExecutionException e) {
      answer.accept(error(request, ErrorCode.ERROR_CODE_SHUTTING_DOWN, "host " + hostId + " is closing"));
    }
  }

  private void step(FragmentRequest request, Consumer<FragmentAnswer> answer) {
    final Key key = new Key(request.getTransaction().getEpoch(), request.getTransaction().getSequence(),
        request.getPartition());
    switch (request.getStepCase()) {
      case JOIN -> answer.accept(join(request, key));
      case BATCH -> {
        final Part part = open.get(key);
        if (part == null) {
          answer.accept(notJoined(request));
          return;
        }
        part.participant.executeBatch(request.getBatch().toByteArray()).whenComplete((result, failure) ->
            answer.accept(failure != null ? error(request, failure) : result(request, result)));
      }
      case PREPARE -> {
        final Part part = open.get(key);
        if (part == null) {
          answer.accept(notJoined(request));
          return;
        }
        reply(request, part.participant.prepare(), answer);
      }
      case COMMIT -> {
        final Part part = open.get(key);
        if (part == null) {
          answer.accept(notJoined(request));
          return;
        }
        part.commitAsked |= request.getCommit();
        reply(request, part.participant.finish(request.getCommit()), answer);
      }
      case RELEASE -> {
        final Part part = open.remove(key);
        // A join that was refused left nothing to release.
        reply(request, part == null ? CompletableFuture.completedFuture(null) : part.participant.release(), answer);
      }
      case APPLY_CATALOG -> {
        final Part part = open.get(key);
        if (part == null) {
          answer.accept(notJoined(request));
          return;
        }
        applyCatalog(request, part, answer);
      }
      case SNAPSHOT_CUT -> cut(request, answer);
      default -> answer.accept(error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "a fragment request without a step"));
    }
  }

  /**
   * The catalog of the schema change {@code part} joined, compiled on this
   * host (or found compiled), given to the part's copy; answers done once
   * the copy took it, or why not.
   */
  private void applyCatalog(FragmentRequest request, Part part, Consumer<FragmentAnswer> answer) {
    final org.partita.proto.txn.SchemaChange change = part.schemaChange;
    if (change == null || change.getCatalogVersion() != request.getApplyCatalog().getCatalogVersion()) {
      answer.accept(error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "partition " + request.getPartition()
          + " joined transaction " + request.getTransaction().getEpoch() + ":" + request.getTransaction().getSequence()
          + (change == null ? " without a schema change" : " for catalog version " + change.getCatalogVersion())
          + ", not for catalog version " + request.getApplyCatalog().getCatalogVersion()));
      return;
    }
    final CatalogSnapshot next;
    try {
      next = catalogs.next(change);
    } catch (RuntimeException e) {
      answer.accept(error(request, ErrorCode.ERROR_CODE_INTERNAL, "host " + hostId + ", partition "
          + request.getPartition() + ": " + e.getMessage()));
      return;
    }
    reply(request, part.participant.applyCatalog(next, change.getEngineCatalog().toByteArray()), answer);
  }

  /**
   * Queues the partition's cut of a snapshot across hosts on its site
   * (waiting for room in its queue); answers the mark's header once every
   * copy began its snapshot, or why not.
   */
  private void cut(FragmentRequest request, Consumer<FragmentAnswer> answer) {
    final int partition = request.getPartition();
    final Site site = leaderSites.apply(partition);
    if (site == null) {
      answer.accept(error(request, ErrorCode.ERROR_CODE_NOT_LEADER, "host " + hostId + " does not lead partition "
          + partition + ": it cannot cut it for snapshot " + request.getSnapshotCut().getName()));
      return;
    }
    final CompletableFuture<org.partita.server.txn.TxnId> cut = new CompletableFuture<>();
    site.submit(new ClusterSnapshotCut(request.getSnapshotCut().getName(), snapshots.get(), cut));
    cut.whenComplete((id, failure) -> answer.accept(failure != null
        ? error(request, ErrorCode.ERROR_CODE_INTERNAL, "host " + hostId + ", partition " + partition + ": "
            + (failure.getCause() != null && failure instanceof java.util.concurrent.CompletionException
                ? failure.getCause().getMessage() : failure.getMessage()))
        : FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setCut(
            org.partita.proto.txn.TxnHeader.newBuilder().setPartition(id.partition()).setEpoch(id.epoch())
                .setSequence(id.sequence())).build()));
  }

  /** Queues the partition's join (waiting for room in its queue); answers done or why not. */
  private FragmentAnswer join(FragmentRequest request, Key key) {
    final int partition = request.getPartition();
    final Site site = leaderSites.apply(partition);
    if (site == null) {
      return error(request, ErrorCode.ERROR_CODE_NOT_LEADER, "host " + hostId + " does not lead partition "
          + partition);
    }
    if (coordinator >= 0 && request.getCoordinatorHostId() != coordinator) {
      return error(request, ErrorCode.ERROR_CODE_NOT_LEADER, "host " + request.getCoordinatorHostId()
          + " no longer coordinates multi-partition transactions (host " + coordinator + " leads partition 0);"
          + " partition " + partition + " did not join");
    }
    final org.partita.proto.txn.MultiPartitionJoin body = request.getJoin();
    if (!request.hasTransaction() || !body.hasInvocation() && !body.hasSchemaChange()) {
      return error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "a join of partition " + partition
          + " without its transaction's header, or with neither an invocation nor a schema change");
    }
    if (body.hasSchemaChange() && catalogs == null) {
      return error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "host " + hostId + " takes no schema change: partition "
          + partition + " did not join");
    }
    if (open.containsKey(key)) {
      return error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "partition " + partition + " already joined "
          + "transaction " + key.epoch() + ":" + key.sequence());
    }
    Invocation invocation = null;
    if (body.hasInvocation()) {
      try {
        invocation = Invocation.fromProto(body.getInvocation());
      } catch (MalformedInvocationException | RuntimeException e) {
        return error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "a join of partition " + partition
            + " with a malformed invocation: " + e.getMessage());
      }
    }
    final org.partita.proto.txn.SchemaChange change = body.hasSchemaChange() ? body.getSchemaChange() : null;
    final LocalParticipant participant = new LocalParticipant(partition, parts, catalogCommitted);
    final MultiPartitionTxn txn = new MultiPartitionTxn(TxnHeader.fromProto(request.getTransaction()), invocation,
        change);
    site.submit(new MultiPartitionJoin(txn, participant));
    final Part part = new Part(participant, request.getCoordinatorHostId(), change);
    open.put(key, part);
    // A refused part gets no RELEASE here (its coordinator sends its steps to the partition's new leader).
    participant.whenRefused(() -> forget(key, part));
    return FragmentAnswer.newBuilder().setRequestId(request.getRequestId())
        .setDone(FragmentDone.getDefaultInstance()).build();
  }

  /**
   * The map after a failover: every open part whose coordinator's host no
   * longer leads partition 0 in {@code map} will hear nothing more from it,
   * so it is finished here — committed if its coordinator told it to
   * commit (committed anywhere means commit everywhere), rolled back if
   * the prepare step never reached it (no partition can have committed),
   * and otherwise (prepared, not told) as the new coordinator decides from
   * what every survivor holds ({@link InDoubtResolver}) — and released, so
   * its partition takes work again. Returns at once; the parts are finished
   * on this server's thread, after the steps that came before.
   */
  void coordinatorMoved(org.partita.server.topology.PartitionMap map) {
    final int coordinator = map.leaderOf(0);
    try {
      thread.execute(() -> finishOrphans(coordinator, map.replicas(0).epoch()));
    } catch (RejectedExecutionException e) {
      // Closing: the sites stop with the database.
    }
  }

  private void finishOrphans(int coordinator, long epoch) {
    this.coordinator = coordinator;
    final var it = open.entrySet().iterator();
    while (it.hasNext()) {
      final Map.Entry<Key, Part> entry = it.next();
      final Part part = entry.getValue();
      if (part.coordinatorHost == coordinator) {
        continue;
      }
      it.remove();
      final Key key = entry.getKey();
      if (!part.commitAsked && part.participant.prepareAsked() && resolver != null) {
        resolver.watch(new org.partita.server.txn.TxnId(org.partita.server.txn.TxnId.MULTI_PARTITION, key.epoch(),
            key.sequence()), "partition " + key.partition() + "'s part", commit -> finishInDoubt(part, commit));
        continue;
      }
      final FailoverOutcome.Decision decision = FailoverOutcome.decide(java.util.List.of(part.commitAsked
          ? FailoverOutcome.PartState.COMMITTED : FailoverOutcome.PartState.OPEN), 1);
      LOG.warning("multi-partition: the coordinator's host " + part.coordinatorHost + " left partition 0 (now led"
          + " by host " + coordinator + " in epoch " + epoch + "): partition " + key.partition() + "'s part in"
          + " transaction " + key.epoch() + ":" + key.sequence() + " is " + (decision == FailoverOutcome.Decision.COMMIT
          ? "committed (its coordinator had told it to)" : "rolled back (no commit had reached it)")
          + " and released");
      if (decision == FailoverOutcome.Decision.ABORT) {
        part.participant.finish(false);
      }
      part.participant.release();
    }
  }

  /** Drops {@code part}, refused by its site, from the open parts, on this server's thread. */
  private void forget(Key key, Part part) {
    try {
      thread.execute(() -> open.remove(key, part));
    } catch (RejectedExecutionException e) {
      // Closing: nothing is served any more.
    }
  }

  /** The parts open here now (joined and not yet released or refused); waits for the steps queued before. */
  int openParts() throws InterruptedException, java.util.concurrent.ExecutionException {
    return thread.submit(open::size).get();
  }

  /** Applies the new coordinator's decision to a part left prepared, on this server's thread. */
  private void finishInDoubt(Part part, boolean commit) {
    try {
      thread.execute(() -> {
        part.participant.finish(commit);
        part.participant.release();
      });
    } catch (RejectedExecutionException e) {
      // Closing: the sites stop with the database.
    }
  }

  private static void reply(FragmentRequest request, CompletableFuture<Void> step, Consumer<FragmentAnswer> answer) {
    step.whenComplete((ignored, failure) -> answer.accept(failure != null ? error(request, failure)
        : FragmentAnswer.newBuilder().setRequestId(request.getRequestId())
            .setDone(FragmentDone.getDefaultInstance()).build()));
  }

  private FragmentAnswer notJoined(FragmentRequest request) {
    return error(request, ErrorCode.ERROR_CODE_BAD_REQUEST, "partition " + request.getPartition() + " on host "
        + hostId + " has no open part in transaction " + request.getTransaction().getEpoch() + ":"
        + request.getTransaction().getSequence());
  }

  private static FragmentAnswer result(FragmentRequest request, ByteBuffer result) {
    return FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setResult(ByteString.copyFrom(result))
        .build();
  }

  private static FragmentAnswer error(FragmentRequest request, Throwable failure) {
    final Throwable cause = Failures.unwrap(failure);
    if (cause instanceof ServerException e) {
      return error(request, e.code(), e.getMessage());
    }
    return error(request, ErrorCode.ERROR_CODE_INTERNAL, cause.getClass().getSimpleName() + ": " + cause.getMessage());
  }

  private static FragmentAnswer error(FragmentRequest request, ErrorCode code, String message) {
    return FragmentAnswer.newBuilder().setRequestId(request.getRequestId()).setError(RemoteError.newBuilder()
        .setErrorCode(code.getNumber()).setMessage(message == null ? "" : message)).build();
  }

  @Override
  public void close() throws InterruptedException {
    thread.shutdown();
    thread.awaitTermination(10, TimeUnit.SECONDS);
  }
}
