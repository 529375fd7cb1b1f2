package org.partita.server.database;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStats;
import org.partita.proto.TableStatsList;
import org.partita.proto.txn.SchemaChange;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.SourceFile;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.Initiator;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * The multi-partition coordinator: runs multi-partition procedures,
 * ad-hoc statements that need several partitions, and schema changes, one
 * at a time, on its own thread. Each transaction gets a header from the
 * coordinator's initiator ({@link TxnId#MULTI_PARTITION}), joins every
 * partition at a point of that partition's own order (a
 * {@link MultiPartitionJoin} sequenced like any other item), talks to them
 * through {@link Participant}s, merges distributed results on an engine of
 * its own, and commits or rolls back everywhere. A schema change is such a
 * transaction: every partition takes the new catalog at the same point of
 * its order.
 *
 * <p>Thread model: {@link #offer} may be called from any thread; everything
 * else runs on the coordinator thread. The coordinator's catalog snapshot,
 * merge engine and procedure instances are confined to it.
 */
final class MpCoordinator implements AutoCloseable, InDoubtResolver.OwnDecisions {
  /** A unit of the coordinator's inbox. */
  sealed interface Request permits Call, Statement, Ddl, Replay, Snapshot, ClusterSnapshot, LoadReplicated, Restore {
    Consumer<ClientResponse> done();
  }

  /** A multi-partition procedure call. */
  record Call(Invocation invocation, Consumer<ClientResponse> done) implements Request {}

  /** An ad-hoc statement that needs several partitions, planned under catalog {@code admittedVersion}. */
  record Statement(Invocation invocation, String sql, ExecutableStatement statement, Object[] parameters,
                   long admittedVersion, Consumer<ClientResponse> done) implements Request {}

  /** DDL: a schema change. */
  record Ddl(Invocation invocation, String ddl, Consumer<ClientResponse> done) implements Request {}

  /**
   * A logged multi-partition transaction that recovery runs again: the
   * join record of its partitions ({@code join}, with the coordinator's
   * header), each partition's header for its join (by partition), and
   * where a mismatch between the log and the schema is reported.
   */
  record Replay(org.partita.proto.txn.MultiPartitionJoin join, TxnHeader[] partitionHeaders,
                Consumer<RuntimeException> failures, Consumer<ClientResponse> done) implements Request {
    TxnHeader header() {
      return TxnHeader.fromProto(join.getCoordinator());
    }
  }

  /**
   * The snapshot marker: every partition fixes its cut at one point of its order, between two
   * multi-partition transactions (the coordinator runs one thing at a time), so the cuts form one
   * transaction-consistent state; {@code cut} completes with them.
   */
  record Snapshot(SnapshotSink sink, CompletableFuture<SnapshotCut> cut, Consumer<ClientResponse> done)
      implements Request {}

  /**
   * The cut of a snapshot across the hosts of a cluster (docs/durability.md,
   * "On a cluster"): between two multi-partition transactions, every
   * partition's leader sequences a cut mark named {@code name}, at which
   * every copy of the partition begins its snapshot into its host's
   * {@link CopySnapshots}; {@code cuts} completes with the marks' ids, by
   * partition, once every copy began, or fails naming the partition that
   * could not cut.
   */
  record ClusterSnapshot(String name, CopySnapshots snapshots, CompletableFuture<List<TxnId>> cuts,
                         Consumer<ClientResponse> done) implements Request {}

  /** Recovery: the snapshot chunks of replicated tables, for the merge engine's copy of them. */
  record LoadReplicated(List<byte[]> chunks, Consumer<ClientResponse> done) implements Request {}

  /**
   * A snapshot restore into the running database (docs/durability.md,
   * "Restoring a snapshot"), run while the commit pipeline refuses new
   * transactions: checks that every table is empty on every partition,
   * loads partition p's chunks from {@code sources.get(p)} (and the chunks
   * of {@code replicatedTables} from partition 0's into the merge engine),
   * then cuts a snapshot into {@code sink} as {@link Snapshot} does, which
   * completes {@code cut}. A table holding rows refuses it with BAD_REQUEST,
   * having changed nothing.
   */
  record Restore(List<SnapshotSource> sources, Set<String> replicatedTables, SnapshotSink sink,
                 CompletableFuture<SnapshotCut> cut, Consumer<ClientResponse> done) implements Request {}

  /** The body of a multi-partition transaction: its result tables. */
  private interface TransactionBody {
    List<ResultTable> run(MultiPartitionContext context) throws Throwable;
  }

  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "partita-coordinator"));
  private final AtomicInteger backlog = new AtomicInteger();
  private final int capacity;
  private final List<Site> sites;
  private final PartitionMap map;
  private final AdHocPlans adHocPlans;
  private final Consumer<CatalogSnapshot> publish;
  private final QueryLimits limits;
  /** The partitions' commit pipeline, asked only whether new transactions are refused. */
  private final CommitPipeline pipeline;
  // Set once the merge engine is open; read by any thread (@CancelQuery).
  private volatile RunningCall runningCall;
  // Coordinator-confined.
  private final Initiator initiator;
  private final Map<CompiledProcedure, ProcedureInstance> instances = new IdentityHashMap<>();
  private CatalogSnapshot catalog;
  /** The DDL that made catalog versions 2 .. catalog.version(), in order (snapshots carry it). */
  private final List<String> schemaChanges;
  private PartitionEngine mergeEngine;
  /** Null on a single host; on a cluster, how the partitions other hosts lead are reached. */
  private final AcrossHosts acrossHosts;
  /** The epoch of this coordinator's transaction ids. */
  private final long epoch;
  /**
   * On a cluster: this coordinator's decisions on its transactions by sequence (the last
   * {@value #DECISIONS_KEPT}), for hosts holding a part prepared after a failover. Written on the
   * coordinator thread, read by any.
   */
  private final java.util.concurrent.ConcurrentHashMap<Long, Boolean> decisions =
      new java.util.concurrent.ConcurrentHashMap<>();
  /**
   * Whether DDL runs on a cluster of several hosts (system property
   * {@code partita.clusterSchemaChanges=on}): the change itself runs on every
   * copy, but a host restarted, rejoined or recovered after it does not yet
   * rebuild the new catalog (docs/cluster.md, "Schema changes across
   * hosts"), so it is off, and DDL refused, unless a test turns it on.
   */
  static final boolean SCHEMA_CHANGES_ACROSS_HOSTS = "on".equals(System.getProperty("partita.clusterSchemaChanges"));
  /** Decisions kept at most. */
  static final int DECISIONS_KEPT = 65_536;

  /**
   * The partitions of a cluster that other hosts lead (docs/cluster.md,
   * "Multi-partition transactions"): each joins through a
   * {@link RemoteParticipant} sent through {@code transport} to its leader
   * in the map {@code leaders} gives at the join (the one the host follows,
   * so a transaction after a failover joins the new leaders); {@code ledHere}
   * gives the site of a partition this host leads then, else null;
   * {@code writer} (coordinator-confined) encodes the batches.
   */
  record AcrossHosts(int selfHost, HostTransport transport, BatchRequestWriter writer,
                     java.util.function.Supplier<PartitionMap> leaders,
                     java.util.function.IntFunction<Site> ledHere, MultiPartitionParts parts,
                     java.util.function.Supplier<CatalogSnapshot> hostCatalog,
                     java.util.function.LongFunction<List<String>> history) {}

  /**
   * The coordinator of a cluster whose partitions are on several hosts:
   * {@code sites} are the ones this host leads, the others are reached
   * through {@code acrossHosts}; {@code catalog} is the host's, made by
   * {@code schemaChanges} from the starting schema. Restores do not run
   * across hosts yet and are refused.
   */
  MpCoordinator(int capacity, List<Site> sites, PartitionMap map, CatalogSnapshot catalog,
      List<String> schemaChanges, AdHocPlans adHocPlans, Consumer<CatalogSnapshot> publish, QueryLimits limits,
      long epoch, AcrossHosts acrossHosts) {
    this(capacity, sites, map, catalog, schemaChanges, adHocPlans, publish, limits, epoch,
        ImmediateCommitPipeline.INSTANCE, acrossHosts);
  }

  /**
   * @param publish called on the coordinator thread with each catalog a schema change commits,
   *     after every partition has taken it
   */
  MpCoordinator(int capacity, List<Site> sites, PartitionMap map, CatalogSnapshot catalog, AdHocPlans adHocPlans,
      Consumer<CatalogSnapshot> publish, QueryLimits limits, long epoch, CommitPipeline pipeline) {
    this(capacity, sites, map, catalog, List.of(), adHocPlans, publish, limits, epoch, pipeline);
  }

  /**
   * As above, for a catalog that {@code schemaChanges} (the DDL of versions
   * 2 .. its version) made from the starting schema.
   */
  MpCoordinator(int capacity, List<Site> sites, PartitionMap map, CatalogSnapshot catalog,
      List<String> schemaChanges, AdHocPlans adHocPlans, Consumer<CatalogSnapshot> publish, QueryLimits limits,
      long epoch, CommitPipeline pipeline) {
    this(capacity, sites, map, catalog, schemaChanges, adHocPlans, publish, limits, epoch, pipeline, null);
  }

  private MpCoordinator(int capacity, List<Site> sites, PartitionMap map, CatalogSnapshot catalog,
      List<String> schemaChanges, AdHocPlans adHocPlans, Consumer<CatalogSnapshot> publish, QueryLimits limits,
      long epoch, CommitPipeline pipeline, AcrossHosts acrossHosts) {
    this.acrossHosts = acrossHosts;
    this.epoch = epoch;
    this.schemaChanges = new ArrayList<>(schemaChanges);
    this.limits = limits;
    this.pipeline = pipeline;
    this.initiator = Initiator.forPartition(TxnId.MULTI_PARTITION, epoch, ImmediateCommitPipeline.INSTANCE);
    this.capacity = capacity;
    this.sites = sites;
    this.map = map;
    this.catalog = catalog;
    this.adHocPlans = adHocPlans;
    this.publish = publish;
  }

  int capacity() {
    return capacity;
  }

  /** Requests accepted and not yet finished (any thread). */
  int backlog() {
    return backlog.get();
  }

  /**
   * Queues {@code request} unless {@link #capacity} requests already wait.
   * Returns false iff refused (nothing runs, nobody is answered). Otherwise
   * its {@code done} is answered exactly once, on the coordinator thread (or
   * this one when the coordinator is closing).
   */
  boolean offer(Request request) {
    if (backlog.incrementAndGet() > capacity) {
      backlog.decrementAndGet();
      return false;
    }
    try {
      thread.execute(() -> run(request));
    } catch (RejectedExecutionException e) {
      backlog.decrementAndGet();
      request.done().accept(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN, "the database is closing"));
    }
    return true;
  }

  /** Queues {@code request} whatever the backlog (in-process callers that wait for the answer). */
  void submit(Request request) {
    backlog.incrementAndGet();
    try {
      thread.execute(() -> run(request));
    } catch (RejectedExecutionException e) {
      backlog.decrementAndGet();
      request.done().accept(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN, "the database is closing"));
    }
  }

  private void run(Request request) {
    if (acrossHosts != null) {
      adoptHostCatalog();
    }
    ClientResponse response;
    final String refusal = request instanceof Replay || request instanceof Restore ? null : pipeline.refusal();
    try {
      if (refusal != null) {
        response = ErrorTable.response(pipeline.refusalCode(), refusal);
      } else if (request instanceof ClusterSnapshot s) {
        response = clusterSnapshot(s);
      } else if (acrossHosts != null && request instanceof Ddl && !SCHEMA_CHANGES_ACROSS_HOSTS) {
        response = ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "the partitions are on several hosts,"
            + " and schema changes do not run across hosts yet: a host restarted, rejoined or recovered after one"
            + " would not have its catalog (docs/cluster.md, \"Schema changes across hosts\"); nothing was run");
      } else if (acrossHosts != null && !(request instanceof Call || request instanceof Statement
          || request instanceof LoadReplicated || request instanceof Ddl)) {
        response = ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "the partitions are on several hosts,"
            + " and snapshots and restores through the coordinator do not run across hosts yet (docs/cluster.md,"
            + " \"Multi-partition transactions\"); nothing was run");
      } else if (request instanceof Call c) {
        response = call(c.invocation(), null);
      } else if (request instanceof Statement s) {
        response = statement(s.invocation(), s.sql(), s.statement(), s.parameters(), s.admittedVersion(), null);
      } else if (request instanceof Ddl d) {
        response = acrossHosts != null ? changeSchemaAcrossHosts(d.ddl()) : changeSchema(d.ddl(), null);
      } else if (request instanceof Snapshot s) {
        response = snapshot(s);
      } else if (request instanceof Restore r) {
        response = restore(r);
      } else if (request instanceof LoadReplicated l) {
        l.chunks().forEach(mergeEngine()::loadSnapshotChunk);
        response = ClientResponse.success(List.of());
      } else {
        response = replay((Replay) request);
      }
    } catch (RuntimeException e) {
      response = Failures.response(e);
    }
    backlog.decrementAndGet();
    request.done().accept(response);
  }

  /** Runs a logged transaction again under its recorded headers; a failure to do so is reported to the replay. */
  private ClientResponse replay(Replay r) {
    final org.partita.proto.txn.MultiPartitionJoin join = r.join();
    try {
      if (join.hasSchemaChange()) {
        return changeSchema(join.getSchemaChange().getDdl(), r);
      }
      final Invocation invocation = Invocation.fromProto(join.getInvocation());
      if (!invocation.procedure().equals("@AdHoc")) {
        return call(invocation, r);
      }
      final Object[] values = invocation.parameters();
      return statement(invocation, (String) values[0], null, java.util.Arrays.copyOfRange(values, 1, values.length),
          -1, r);
    } catch (MalformedInvocationException | RuntimeException e) {
      final IllegalStateException failure = new IllegalStateException("cannot replay multi-partition transaction "
          + r.header().id() + ": " + e.getMessage(), e);
      r.failures().accept(failure);
      return Failures.response(failure);
    }
  }

  /** Runs a multi-partition call; {@code replay} is null for a new call. */
  private ClientResponse call(Invocation invocation, Replay replay) {
    final String name = invocation.procedure();
    final CompiledProcedure procedure = catalog.catalog().procedure(name).orElseThrow(() -> new ServerException(
        ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND, "procedure " + name + " does not exist"));
    if (procedure.singlePartition()) {
      throw new ServerException(ErrorCode.ERROR_CODE_CATALOG_CHANGED, "procedure " + name + " became"
          + " single-partition (catalog version " + catalog.version() + ") before the call ran; retry it");
    }
    final Object[] arguments = invocation.parameters();
    return runTransaction(new MultiPartitionTxn(header(replay), invocation, null), replay, procedure.readOnly(),
        context -> {
      if (procedure.isSql()) {
        context.queue(ExecutableStatement.of(procedure.statements().get(CompiledProcedure.SQL_STATEMENT)), arguments);
        return List.of(context.execute(true));
      }
      final ProcedureInstance instance = instances.computeIfAbsent(procedure, ProcedureInstance::create);
      context.bindInstance(instance);
      return Invocations.runJava(procedure, instance, context, arguments);
    });
  }

  /** Runs an ad-hoc statement planned as {@code admitted} under {@code admittedVersion} (planned again if stale). */
  private ClientResponse statement(Invocation invocation, String sql, ExecutableStatement admitted,
      Object[] parameters, long admittedVersion, Replay replay) {
    final ExecutableStatement statement;
    try {
      statement = admitted != null && admittedVersion == catalog.version() ? admitted
          : adHocPlans.plan(sql, catalog.catalog());
    } catch (org.partita.server.planner.PlanningException e) {
      throw new ServerException(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage());
    }
    return runTransaction(new MultiPartitionTxn(header(replay), invocation, null), replay,
        statement.planned().readOnly(), context -> {
      context.queue(statement, parameters);
      return List.of(context.execute(true));
    });
  }

  /** A new transaction's header, or the recorded one of {@code replay} (which the initiator adopts). */
  private TxnHeader header(Replay replay) {
    if (replay == null) {
      return initiator.nextHeader(catalog.version());
    }
    final TxnHeader recorded = replay.header();
    initiator.adopt(recorded);
    return recorded;
  }

  /**
   * Joins every partition, runs {@code body}, commits everywhere or rolls
   * back everywhere; a call of a client session that partition
   * {@link Deduplication#MULTI_PARTITION_RECORDS}'s table knows is answered
   * from it instead, and one that commits and is not {@code readOnly} is
   * recorded there (docs/cluster.md, "Client de-duplication").
   */
  private ClientResponse runTransaction(MultiPartitionTxn txn, Replay replay, boolean readOnly,
      TransactionBody body) {
    // Open the merge engine before any partition joins: a failure to open it must not leave partitions held.
    final PartitionEngine merge = mergeEngine();
    final RunningCall running = runningCall;
    final List<Participant> participants = join(txn, replay);
    final ClientResponse earlier = earlierAnswer(txn, participants);
    if (earlier != null) {
      return notRun(participants, earlier);
    }
    // A replayed transaction runs to its end: one that a limit or a cancel stopped is not in the log.
    running.begin(replay == null ? txn.invocation() : null);
    // A schema change (no invocation) runs to its end, as on one host.
    final TimeBudget budget = replay == null && txn.invocation() != null
        ? TimeBudget.startingNow(limits.timeoutFor(txn.invocation().timeoutMillis())) : TimeBudget.NONE;
    final MultiPartitionContext context = new MultiPartitionContext(participants, map, merge, txn.header(), budget,
        running);
    ClientResponse response;
    boolean commitSent = false;
    final boolean prepares = acrossHosts != null && replicated(acrossHosts.leaders().get());
    try {
      final List<ResultTable> results = body.run(context);
      context.rethrowIfInterrupted();
      if (prepares) {
        // Every part on every copy before any commit (docs/cluster.md, "When a host dies mid-transaction").
        context.prepare();
      }
      response = context.withAppStatus(ClientResponse.success(results));
      if (!readOnly) {
        recordOnCommit(txn, participants, response);
      }
      commitSent = true;
      decided(txn, true);
      context.finish(true);
    } catch (Throwable t) {
      response = context.withAppStatus(commitSent ? Failures.response(t) : FailoverOutcome.beforeCommit(t));
      decided(txn, commitSent);
      try {
        context.finish(false);
      } catch (RuntimeException e) {
        // Every partition that can has rolled back (joinAll waits for all). One whose leader is gone needs not:
        // no commit reached it, or the response already says OUTCOME_UNKNOWN. Any other failure to roll back
        // leaves the answer as the body's failure made it.
        if (!(Failures.unwrap(e) instanceof LeaderMovedException)) {
          response = Failures.response(e);
        }
      }
    } finally {
      // Before the partitions go back to their queues: a later cancel must not reach their next work.
      running.end();
    }
    if (replay == null && Interruption.isInterruption(response.errorCode())) {
      pipeline.aborted(txn.header()); // before any partition is released: no later record precedes the marker
    }
    try {
      releaseAll(participants);
    } catch (RuntimeException e) {
      response = FailoverOutcome.afterRelease(response, e);
    }
    return response;
  }

  /**
   * What partition {@link Deduplication#MULTI_PARTITION_RECORDS}'s table
   * answers {@code txn}'s call of a client session instead of running it
   * (waits until that partition reached the join), or null to run it. A
   * session's call on a coordinator not leading that partition (it is
   * handing over) is answered NOT_LEADER, not run: only its leader's table
   * can say whether it ran.
   */
  private ClientResponse earlierAnswer(MultiPartitionTxn txn, List<Participant> participants) {
    final Invocation invocation = txn.invocation();
    if (invocation == null || !org.partita.server.txn.ClientSessions.isSession(invocation.clientId())) {
      return null;
    }
    final Participant records = participants.get(Deduplication.MULTI_PARTITION_RECORDS);
    if (records instanceof LocalParticipant local) {
      return local.earlierAnswer().join();
    }
    return ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "this host's coordinator does not lead partition "
        + Deduplication.MULTI_PARTITION_RECORDS + ", whose table says whether call " + invocation.clientSequence()
        + " of this client session ran; it was not run");
  }

  /** Rolls back every part of a transaction that ran nothing, releases them, and answers {@code answer}. */
  private static ClientResponse notRun(List<Participant> participants, ClientResponse answer) {
    final List<CompletableFuture<Void>> rolledBack = new ArrayList<>(participants.size());
    for (Participant participant : participants) {
      rolledBack.add(participant.finish(false));
    }
    // Nothing ran in any part, so a part that cannot roll back or release (its leader moved) changes nothing: the
    // answer stands, and every other part is still released.
    try {
      MultiPartitionContext.joinAll(rolledBack);
    } catch (RuntimeException e) {
      // As above.
    }
    try {
      releaseAll(participants);
    } catch (RuntimeException e) {
      // As above.
    }
    return answer;
  }

  /** Gives partition {@link Deduplication#MULTI_PARTITION_RECORDS} {@code txn}'s answer, to record as it commits. */
  private static void recordOnCommit(MultiPartitionTxn txn, List<Participant> participants,
      ClientResponse response) {
    final Invocation invocation = txn.invocation();
    if (invocation != null && org.partita.server.txn.ClientSessions.isSession(invocation.clientId())
        && participants.get(Deduplication.MULTI_PARTITION_RECORDS) instanceof LocalParticipant local) {
      local.recordOnCommit(response);
    }
  }

  /** True when some partition of {@code map} has more than one copy (the prepare step is then needed). */
  private static boolean replicated(PartitionMap map) {
    for (int p = 0; p < map.partitionCount(); p++) {
      if (map.replicas(p).replicaHosts().size() > 1) {
        return true;
      }
    }
    return false;
  }

  /** Records this coordinator's decision on {@code txn} (a cluster's coordinator only), before it is sent. */
  private void decided(MultiPartitionTxn txn, boolean commit) {
    if (acrossHosts == null) {
      return;
    }
    final long sequence = txn.header().id().sequence();
    decisions.putIfAbsent(sequence, commit);
    decisions.remove(sequence - DECISIONS_KEPT);
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public Boolean decision(long sequence) {
    return decisions.get(sequence);
  }

  /**
   * Queues {@code txn}'s join on every partition (under each partition's
   * recorded header when replaying); the participants, in partition order.
   */
  private List<Participant> join(MultiPartitionTxn txn, Replay replay) {
    if (acrossHosts != null) {
      return joinAcrossHosts(txn);
    }
    final List<Participant> participants = new ArrayList<>(sites.size());
    for (Site site : sites) {
      final LocalParticipant participant = new LocalParticipant(site.partition());
      final MultiPartitionJoin item = new MultiPartitionJoin(txn, participant);
      site.submit(replay == null ? item
          : new Replayed(item, replay.partitionHeaders()[site.partition()], replay.failures()));
      participants.add(participant);
    }
    return participants;
  }

  /**
   * Joins {@code txn} on every partition of the cluster, in partition order:
   * a site for the ones this host leads, a {@link RemoteParticipant} for the
   * others (their joins leave at once, in this order).
   */
  private List<Participant> joinAcrossHosts(MultiPartitionTxn txn) {
    final PartitionMap leaders = acrossHosts.leaders().get();
    final List<Participant> participants = new ArrayList<>(leaders.partitionCount());
    for (int p = 0; p < leaders.partitionCount(); p++) {
      final Site site = acrossHosts.ledHere().apply(p);
      if (site != null) {
        final LocalParticipant participant = new LocalParticipant(p, acrossHosts.parts());
        site.submit(new MultiPartitionJoin(txn, participant));
        participants.add(participant);
      } else {
        participants.add(new RemoteParticipant(p, leaders.leaderOf(p), acrossHosts.selfHost(), txn,
            acrossHosts.transport(), acrossHosts.writer()));
      }
    }
    return participants;
  }

  /** Releases every partition and waits until each lets the outcome be seen. */
  private static void releaseAll(List<Participant> participants) {
    final List<CompletableFuture<Void>> released = new ArrayList<>(participants.size());
    for (Participant participant : participants) {
      released.add(participant.release());
    }
    MultiPartitionContext.joinAll(released);
  }

  /** Fixes the snapshot cut on every partition (each then streams between its transactions). */
  private ClientResponse snapshot(Snapshot s) {
    final List<CompletableFuture<TxnId>> begun = new ArrayList<>(sites.size());
    for (Site site : sites) {
      final CompletableFuture<TxnId> cut = new CompletableFuture<>();
      site.submit(new SnapshotBegin(s.sink(), cut));
      begun.add(cut);
    }
    final List<TxnId> lastRun = new ArrayList<>(sites.size());
    try {
      for (CompletableFuture<TxnId> cut : begun) {
        lastRun.add(cut.join());
      }
    } catch (RuntimeException e) {
      s.cut().completeExceptionally(e);
      return Failures.response(e);
    }
    s.cut().complete(new SnapshotCut(Collections.unmodifiableList(lastRun), catalog.version(),
        catalog.catalog().engineCatalog().toByteArray(), List.copyOf(schemaChanges)));
    return ClientResponse.success(List.of());
  }

  /**
   * Cuts every partition for the snapshot {@code s.name()}: the partitions
   * this host leads on their sites, the others through a step to their
   * leaders; waits for every cut before the next request runs, so none
   * falls inside a multi-partition transaction.
   */
  private ClientResponse clusterSnapshot(ClusterSnapshot s) {
    final int partitions = acrossHosts != null ? acrossHosts.leaders().get().partitionCount() : sites.size();
    final List<CompletableFuture<TxnId>> begun = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      begun.add(cutPartition(p, s));
    }
    final List<TxnId> cuts = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      try {
        cuts.add(begun.get(p).join());
      } catch (RuntimeException e) {
        final Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null
            ? e.getCause() : e;
        final ServerException failed = new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "snapshot " + s.name()
            + ": partition " + p + " could not cut: " + cause.getMessage());
        s.cuts().completeExceptionally(failed);
        return ErrorTable.response(failed);
      }
    }
    s.cuts().complete(Collections.unmodifiableList(cuts));
    return ClientResponse.success(List.of());
  }

  /** Partition {@code p}'s cut mark: queued on its site when this host leads it, else asked of its leader. */
  private CompletableFuture<TxnId> cutPartition(int p, ClusterSnapshot s) {
    final Site local = acrossHosts != null ? acrossHosts.ledHere().apply(p) : sites.get(p);
    if (local != null) {
      final CompletableFuture<TxnId> cut = new CompletableFuture<>();
      local.submit(new ClusterSnapshotCut(s.name(), s.snapshots(), cut));
      return cut;
    }
    final int host = acrossHosts.leaders().get().leaderOf(p);
    final org.partita.proto.cluster.FragmentRequest request = org.partita.proto.cluster.FragmentRequest.newBuilder()
        .setCoordinatorHostId(acrossHosts.selfHost()).setPartition(p)
        .setTransaction(org.partita.proto.txn.TxnHeader.newBuilder().setPartition(TxnId.MULTI_PARTITION)
            .setEpoch(epoch))
        .setSnapshotCut(org.partita.proto.cluster.FragmentSnapshotCut.newBuilder().setName(s.name())).build();
    return acrossHosts.transport().send(host, request).thenApply(answer -> {
      if (answer.hasError()) {
        throw RemoteParticipant.error(answer.getError());
      }
      if (!answer.hasCut()) {
        throw new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "host " + host + " answered the snapshot cut of"
            + " partition " + p + " with " + answer.getOutcomeCase());
      }
      return TxnHeader.fromProto(answer.getCut()).id();
    });
  }

  /** Loads a snapshot into empty tables, then cuts a snapshot of the result ({@link Restore}). */
  private ClientResponse restore(Restore r) {
    final String occupied;
    try {
      occupied = occupiedTable();
    } catch (RuntimeException e) {
      r.cut().completeExceptionally(e);
      return Failures.response(e);
    }
    if (occupied != null) {
      final ServerException refused = new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, "@SnapshotRestore loads"
          + " only into empty tables, and " + occupied + "; nothing was restored");
      r.cut().completeExceptionally(refused);
      return ErrorTable.response(refused);
    }
    final List<byte[]> replicated = Collections.synchronizedList(new ArrayList<>());
    final List<CompletableFuture<Long>> loads = new ArrayList<>(sites.size());
    for (Site site : sites) {
      final CompletableFuture<Long> done = new CompletableFuture<>();
      final Consumer<byte[]> copy = site.partition() != 0 ? null : chunk -> {
        if (r.replicatedTables().contains(SnapshotChunks.table(chunk))) {
          replicated.add(chunk);
        }
      };
      site.submit(new SnapshotLoad(r.sources().get(site.partition()), null, copy, done));
      loads.add(done);
    }
    try {
      MultiPartitionContext.joinAll(loads);
      replicated.forEach(mergeEngine()::loadSnapshotChunk);
    } catch (RuntimeException e) {
      final IllegalStateException failed = new IllegalStateException("loading the snapshot failed part of the way"
          + " through: " + e.getMessage(), e);
      r.cut().completeExceptionally(failed);
      return Failures.response(failed);
    }
    return snapshot(new Snapshot(r.sink(), r.cut(), r.done()));
  }

  /** "table T holds N row(s) on partition P" for the first table of any partition that is not empty; else null. */
  private String occupiedTable() {
    final List<CompletableFuture<TableStatsList>> reads = new ArrayList<>(sites.size());
    for (Site site : sites) {
      final CompletableFuture<TableStatsList> read = new CompletableFuture<>();
      site.submit(new SiteRead(read));
      reads.add(read);
    }
    for (CompletableFuture<TableStatsList> read : reads) {
      final TableStatsList stats = read.join();
      for (TableStats table : stats.getTablesList()) {
        if (table.getRowCount() > 0) {
          return "table " + table.getName() + " holds " + table.getRowCount() + " row(s) on partition "
              + stats.getPartitionId();
        }
      }
    }
    return null;
  }

  /** Applies DDL to every partition at one point of their orders, or to none. */
  private ClientResponse changeSchema(String ddl, Replay replay) {
    final CompiledCatalog current = catalog.catalog();
    final CompiledCatalog nextCatalog;
    try {
      nextCatalog = new CatalogCompiler(current.classLoader()).apply(current, new SourceFile("@AdHoc", ddl));
    } catch (DdlException e) {
      if (replay != null) {
        throw new IllegalStateException("the logged DDL no longer compiles: " + e.getMessage(), e);
      }
      return ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage());
    }
    final CatalogSnapshot previous = catalog;
    final CatalogSnapshot next = new CatalogSnapshot(nextCatalog, previous.version() + 1);
    final byte[] nextBytes = nextCatalog.engineCatalog().toByteArray();
    if (replay != null && replay.join().getSchemaChange().getCatalogVersion() != next.version()) {
      throw new IllegalStateException("the logged schema change made catalog version "
          + replay.join().getSchemaChange().getCatalogVersion() + ", replaying it makes " + next.version());
    }
    final SchemaChange change = SchemaChange.newBuilder().setDdl(ddl).setCatalogVersion(next.version())
        .setEngineCatalog(com.google.protobuf.ByteString.copyFrom(nextBytes)).build();
    final List<Participant> participants = join(new MultiPartitionTxn(header(replay), null, change), replay);
    final List<Participant> updated = new ArrayList<>();
    try {
      for (Participant participant : participants) {
        participant.applyCatalog(next, nextBytes).join();
        updated.add(participant);
      }
      // Each partition keeps it (a part released with a new catalog and no commit restores the one before).
      for (Participant participant : participants) {
        participant.finish(true).join();
      }
      if (mergeEngine != null) {
        mergeEngine.updateCatalog(nextBytes);
      }
      catalog = next;
      schemaChanges.add(ddl);
      instances.clear();
      publish.accept(next);
      return ClientResponse.success(List.of());
    } catch (RuntimeException e) {
      final byte[] previousBytes = previous.catalog().engineCatalog().toByteArray();
      for (Participant participant : updated) {
        participant.applyCatalog(previous, previousBytes).join();
      }
      return Failures.response(e);
    } finally {
      releaseAll(participants);
    }
  }

  /**
   * A schema change on a cluster of several hosts (docs/cluster.md, "Schema
   * changes across hosts"): a multi-partition transaction over every
   * partition whose one step is the new catalog, which each leader copy
   * takes at its place in the partition's order and its replicas with the
   * prepare step; it commits or rolls back everywhere as any transaction
   * does, so a coordinator that dies in between leaves it as any
   * transaction in doubt. Once decided committed this coordinator, its
   * merge engine and its host move to the new catalog; every other host
   * moves when a copy it holds commits.
   */
  private ClientResponse changeSchemaAcrossHosts(String ddl) {
    final CompiledCatalog current = catalog.catalog();
    final CompiledCatalog nextCatalog;
    try {
      nextCatalog = new CatalogCompiler(current.classLoader()).apply(current, new SourceFile("@AdHoc", ddl));
    } catch (DdlException e) {
      return ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage());
    }
    final CatalogSnapshot next = new CatalogSnapshot(nextCatalog, catalog.version() + 1);
    final byte[] nextBytes = nextCatalog.engineCatalog().toByteArray();
    final SchemaChange change = SchemaChange.newBuilder().setDdl(ddl).setCatalogVersion(next.version())
        .setEngineCatalog(com.google.protobuf.ByteString.copyFrom(nextBytes)).build();
    final MultiPartitionTxn txn = new MultiPartitionTxn(header(null), null, change);
    final ClientResponse response = runTransaction(txn, null, false, context -> {
      context.applyCatalog(next, nextBytes);
      return List.of();
    });
    if (Boolean.TRUE.equals(decisions.get(txn.header().id().sequence()))) {
      // Decided committed: every copy commits it (committed anywhere means commit everywhere).
      takeCatalog(next, ddl);
      publish.accept(next);
    }
    return response;
  }

  /** This coordinator and its merge engine move to {@code next}, which {@code ddl} made. */
  private void takeCatalog(CatalogSnapshot next, String ddl) {
    if (mergeEngine != null) {
      mergeEngine.updateCatalog(next.catalog().engineCatalog().toByteArray());
    }
    catalog = next;
    schemaChanges.add(ddl);
    instances.clear();
  }

  /**
   * Moves to the catalog the host committed since this coordinator last
   * looked, when it is newer: a change an earlier coordinator decided and
   * this host's copies committed after this one started (a failover).
   */
  private void adoptHostCatalog() {
    final CatalogSnapshot host = acrossHosts.hostCatalog().get();
    if (host.version() <= catalog.version()) {
      return;
    }
    final List<String> history = acrossHosts.history().apply(host.version());
    for (long v = catalog.version() + 1; v < host.version(); v++) {
      schemaChanges.add(history.get((int) v - 2));
    }
    takeCatalog(host, history.get((int) host.version() - 2));
  }

  /**
   * The coordinator's engine (opened with the database): it runs merge
   * plans and holds a copy of the replicated tables — every write to them is
   * a multi-partition transaction, which runs it here too — and no row of a
   * partitioned table.
   */
  private PartitionEngine mergeEngine() {
    if (mergeEngine == null) {
      mergeEngine = PartitionEngine.open(catalog.catalog().engineCatalog().toByteArray(), TxnId.MULTI_PARTITION,
          map.partitionCount(), PartitionEngine.DEFAULT_REQUEST_CAPACITY, PartitionEngine.DEFAULT_RESPONSE_CAPACITY,
          limits.memoryBytes());
      // The partitions' part is cancelled through their own running calls (they serve this call's fragments).
      runningCall = RunningCall.onEngines(List.of(mergeEngine));
    }
    return mergeEngine;
  }

  /**
   * Cancels the multi-partition call running now if it is {@code clientId}'s.
   * Any thread. Returns the cancelled call, or null.
   */
  Invocation cancel(long clientId) {
    final RunningCall running = runningCall;
    return running == null ? null : running.cancel(clientId);
  }

  /** Finishes the requests already queued, then closes the merge engine on its own thread (engines are confined). */
  @Override
  public void close() throws InterruptedException {
    try {
      thread.execute(this::closeMergeEngine);
    } catch (RejectedExecutionException e) {
      // Already closed.
    }
    thread.shutdown();
    thread.awaitTermination(1, TimeUnit.MINUTES);
  }

  private void closeMergeEngine() {
    if (mergeEngine != null) {
      final PartitionEngine engine = mergeEngine;
      mergeEngine = null;
      engine.close();
    }
  }
}
