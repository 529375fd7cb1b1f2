package org.partita.server.database;

import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jctools.queues.MpscArrayQueue;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStatsList;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.Initiator;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.InvocationReader;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * One partition: a thread that owns the partition's engine, its catalog
 * snapshot and its initiator, and runs {@link WorkItem}s from its queue one
 * after another to completion. As each item leaves the queue the initiator
 * gives it its place in the partition's order (a TxnHeader) when it is a
 * {@link SequencedItem}; the site's execution order is therefore its
 * sequence order. Everything the engine touches happens on this thread.
 *
 * <p>The queue is bounded and lock-free (many producers, this one
 * consumer). {@link #offer} never blocks: a full queue answers false and
 * the producer applies backpressure (the network server pauses reading).
 * {@link #submit} waits for room and is for work that must not be refused
 * (a multi-partition transaction joining). An idle site spins briefly, then
 * parks; a producer unparks it (see {@link #wake} for why that cannot be
 * missed).
 *
 * <p>While a snapshot is being taken ({@link #beginSnapshot}) the site makes
 * one chunk of it after each item it runs, and keeps making them while idle,
 * as fast as the sink takes them.
 */
final class Site implements Runnable {
  private static final Logger LOG = Logger.getLogger(Site.class.getName());
  /** How long {@link #stop} waits for the site's thread before it logs where that thread is (then waits on). */
  private static final long STOP_REPORT_MILLIS = 10_000;
  /** Default bound of a site's queue. */
  static final int DEFAULT_QUEUE_CAPACITY = 16 * 1024;
  private static final int IDLE_SPINS = 200;
  private static final long FULL_QUEUE_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
  /**
   * While it streams a snapshot, an idle site wakes this often to see whether
   * the sink takes another chunk or was cancelled (the sink does not wake it).
   */
  private static final long SNAPSHOT_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /**
   * Otherwise an idle site sleeps until a producer wakes it ({@link #wake}),
   * or its statistics are due, or at most this long (a bound on any missed
   * wake-up). Idle hosts cost next to nothing: a 12-host cluster's parked
   * sites used to wake 100 times a second each.
   */
  private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /** How often a busy site publishes its engine's table statistics for ad-hoc planning. */
  static final long STATS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
  /**
   * How soon after the last publication an idle site publishes what its last
   * items wrote (not at every pause: a lightly loaded site pauses between
   * most calls, and the statistics cost a JNI call).
   */
  static final long IDLE_STATS_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  /** Rows per snapshot chunk, in bytes: one chunk is made between two transactions (docs/durability.md). */
  static final int SNAPSHOT_CHUNK_BYTES = 512 * 1024;
  /** The site thread's CPU clock, read around each snapshot chunk (SnapshotSink#chunk). */
  private static final ThreadMXBean THREAD_CPU = ManagementFactory.getThreadMXBean();

  private final int partition;
  private final PartitionMap partitionMap;
  private final AdHocPlans adHocPlans;
  private final MpscArrayQueue<WorkItem> queue;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final Thread thread;
  /** Site-confined: replaced when this copy starts leading in a new epoch ({@link #lead}). */
  private Initiator initiator;
  /** Set by {@link #stepDown} (any thread): this copy no longer leads; the site follows from its next item. */
  private volatile boolean leadershipLeft;
  /** Site thread: this copy stepped down and runs only its new leader's items (see {@link #stepDown}). */
  private boolean following;
  private final QueryLimits limits;
  private volatile RuntimeException openFailure;
  // Set once the engine is open; read by any thread (@CancelQuery).
  private volatile RunningCall runningCall;
  // The engine's table statistics as of statsVersion, for ad-hoc planning (RowCounts); written by the site only.
  private volatile TableStatsList publishedStats;
  private volatile long statsVersion;
  private long statsPublishedNanos;
  private boolean statsStale;
  private volatile boolean parked;
  private volatile boolean stopping;
  private final AtomicLong busyNanos = new AtomicLong();
  private final AtomicLong tasksRun = new AtomicLong();
  // Site-confined state.
  private CatalogSnapshot catalog;
  /** Site-confined: a replayed item is running. */
  private boolean replaying;
  /** Site-confined: the replayed item running is a replica's run of its leader's item ({@link #replayingLeadersItem}). */
  private boolean leadersItem;
  /** Site-confined: on a replica's copy, the header of the last item of the leader's order run here (null before any). */
  private TxnHeader lastReplicated;
  private PartitionEngine engine;
  private final Map<CompiledProcedure, ProcedureInstance> instances = new IdentityHashMap<>();
  private SinglePartitionContext context;
  // The sink of the snapshot being streamed, or null.
  private SnapshotSink snapshotSink;
  /** Site-confined: the recent writes of client sessions on this copy (Deduplication). */
  private final DedupTable dedup = new DedupTable();
  /** Site-confined: decodes the invocations of the leader's items a replica copy runs (ReplicaRun). */
  private final InvocationReader replicaInvocations = new InvocationReader();
  /** Site-confined: the partitioning value of the call queued next (the engine's prefetch hint). */
  private final KeyAhead keyAhead = new KeyAhead(replicaInvocations);
  /** Bytes of cut images the engine keeps for the active snapshot (0 without one); written on the site thread. */
  private volatile long snapshotKeptBytes;

  Site(int partition, PartitionMap partitionMap, CatalogSnapshot catalog, AdHocPlans adHocPlans, int queueCapacity,
      CommitPipeline pipeline, QueryLimits limits, long epoch) {
    this.partition = partition;
    this.limits = limits;
    this.partitionMap = partitionMap;
    this.catalog = catalog;
    this.adHocPlans = adHocPlans;
    this.queue = new MpscArrayQueue<>(queueCapacity);
    this.initiator = Initiator.forPartition(partition, epoch, pipeline);
    this.thread = new Thread(this, "partita-site-" + partition);
  }

  /** Starts the thread and waits until the engine is open. */
  void start() throws InterruptedException {
    thread.start();
    opened.await();
    if (openFailure != null) {
      throw openFailure;
    }
  }

  int partition() {
    return partition;
  }

  PartitionMap partitionMap() {
    return partitionMap;
  }

  /** Queues {@code item} unless the queue is full. Returns true iff queued. Never blocks. */
  boolean offer(WorkItem item) {
    if (!queue.offer(item)) {
      return false;
    }
    wake();
    return true;
  }

  /** Queues {@code item}, waiting for room when the queue is full. */
  void submit(WorkItem item) {
    while (!queue.offer(item)) {
      LockSupport.parkNanos(FULL_QUEUE_PARK_NANOS);
    }
    wake();
  }

  /**
   * Unparks the site if it may be parked. The full fence orders the
   * producer's store of the item before its read of {@code parked} (x86
   * lets a load pass an earlier store): without it the site could park
   * having just missed the item while the producer read a stale
   * {@code parked == false}, and the item would wait for the next one.
   */
  private void wake() {
    VarHandle.fullFence();
    if (parked) {
      LockSupport.unpark(thread);
    }
  }

  /** Items waiting in the queue (approximate, any thread). */
  int queueDepth() {
    return queue.size();
  }

  int queueCapacity() {
    return queue.capacity();
  }

  /** Nanoseconds this site spent running items since it started (any thread). */
  long busyNanos() {
    return busyNanos.get();
  }

  /** Items this site has run (any thread). */
  long tasksRun() {
    return tasksRun.get();
  }

  /** The bounds this site's transactions run under (any thread). */
  QueryLimits limits() {
    return limits;
  }

  /** The call running on this site now, for @CancelQuery (any thread; null before the engine opened). */
  RunningCall runningCall() {
    return runningCall;
  }

  /** The engine's table statistics last published (any thread; null before the engine opened). */
  TableStatsList publishedStats() {
    return publishedStats;
  }

  /** How many times the statistics were published (any thread). */
  long statsVersion() {
    return statsVersion;
  }

  /** Publishes the engine's table statistics. REQUIRES: on the site thread. */
  private void publishStats(long now) {
    publishedStats = engine.tableStats();
    statsPublishedNanos = now;
    statsStale = false;
    statsVersion++;
  }

  /** REQUIRES: on the site thread. */
  PartitionEngine engine() {
    return engine;
  }

  /** REQUIRES: on the site thread. */
  SinglePartitionContext context() {
    return context;
  }

  /** This copy's de-duplication table. REQUIRES: on the site thread. */
  DedupTable dedup() {
    return dedup;
  }

  /** REQUIRES: on the site thread. */
  Initiator initiator() {
    return initiator;
  }

  /**
   * Hands {@code response} to the partition's commit pipeline, which passes
   * it to {@code done} when {@code item}'s outcome may be seen. REQUIRES: on
   * the site thread.
   */
  void answer(TxnHeader header, SequencedItem item, ClientResponse response, Consumer<ClientResponse> done) {
    if (Interruption.isInterruption(response.errorCode())) {
      initiator.pipeline().aborted(header);
    }
    // A failed call changed nothing (and may have failed before the context ran it: its hash is not this call's).
    final long writeHash = response.ok() ? context.writeHash() : 0;
    initiator.pipeline().release(header, item, writeHash, response, done);
  }

  /** True while a replayed item runs (it runs without a time limit). REQUIRES: on the site thread. */
  boolean replaying() {
    return replaying;
  }

  /** REQUIRES: on the site thread. */
  void replaying(boolean now) {
    replaying = now;
  }

  /**
   * As {@link #replaying(boolean)}, for a replica's run of an item of its
   * leader's order: an item the leader ran and that wrote there (the leader
   * sends nothing else to be run). REQUIRES: on the site thread.
   */
  void replayingLeadersItem(boolean now) {
    replaying = now;
    leadersItem = now;
  }

  /** True while a replica runs an item of its leader's order. REQUIRES: on the site thread. */
  boolean runningLeadersItem() {
    return leadersItem;
  }

  /**
   * The invocation of the leader's single-partition item {@code item} that
   * this copy runs (decoded already if it was looked at ahead). REQUIRES: on
   * the site thread.
   */
  Invocation replicaInvocation(org.partita.proto.txn.WorkItem item) throws MalformedInvocationException {
    return keyAhead.replicaInvocation(item);
  }

  /**
   * Whether the item queued behind the running one is a single-partition
   * call with an integer partitioning value ({@link KeyAhead}); if so,
   * {@link #keyAhead} holds it. REQUIRES: on the site thread.
   */
  boolean findKeyAhead() {
    return keyAhead.find(queue.relaxedPeek(), this);
  }

  /** The value {@link #findKeyAhead} found last. */
  long keyAhead() {
    return keyAhead.key();
  }

  /** This partition's compiled catalog. REQUIRES: on the site thread. */
  CompiledCatalog catalog() {
    return catalog.catalog();
  }

  /** Records that {@code header}'s item, of the leader's order, ran on this copy. REQUIRES: on the site thread. */
  void replicated(TxnHeader header) {
    lastReplicated = header;
  }

  /**
   * The header of the last item this copy ran (replicated, or sequenced here;
   * the seed is not kept for the latter), or null when it ran none.
   * REQUIRES: on the site thread.
   */
  TxnHeader lastRunHeader() {
    if (lastReplicated != null) {
      return lastReplicated;
    }
    final TxnId last = initiator.lastRun();
    return last == null ? null : new TxnHeader(last, initiator.lastTimestampMicros(), 0, catalog.version());
  }

  /**
   * Leader hand-off (docs/cluster.md, "Leader rebalancing"): this copy, which
   * led its partition, is a replica from now on. Before its next item the
   * site drops its deposed commit pipeline for an immediate one, as a
   * replica's (the items its new leader sends run and answer their
   * replication there), and from then on refuses every call that would be
   * sequenced here with NOT_LEADER: a copy that follows never orders work
   * itself. A multi-partition join still queued does not run either: its
   * participant refuses every step ({@link LocalParticipant#refuse}), so its
   * coordinator rolls the transaction back, and the site goes on. Run behind
   * the deposed pipeline instead, such a join waited on this copy's thread
   * for steps a remote coordinator no longer sends here (its transport does
   * not send to a host that stopped leading the partition), and this copy
   * ran nothing more of its new leader's (tests/fault/RESULTS.md). Leading
   * again ({@link #lead}) ends it. Any thread.
   */
  void stepDown() {
    leadershipLeft = true;
  }

  /** Switches to following, once, on the site thread ({@link #stepDown}). */
  private void follow() {
    initiator.pipeline().siteIdle();
    // What it sequenced last is the last item of its order it ran, as a replica's last replicated item is: a
    // snapshot cuts there, and leading again follows it.
    if (lastReplicated == null && initiator.lastRun() != null) {
      lastReplicated = new TxnHeader(initiator.lastRun(), initiator.lastTimestampMicros(), 0, catalog.version());
    }
    initiator = Initiator.forPartition(partition, ImmediateCommitPipeline.INSTANCE);
    following = true;
  }

  /** What the commit pipeline batched from the items run so far leaves now (the site is about to wait). */
  void handOnBatched() {
    initiator.pipeline().siteIdle();
  }

  /**
   * From now on this copy sequences its partition's work itself, in
   * {@code epoch}, behind {@code pipeline} (failover, docs/cluster.md): a
   * replica promoted to leader, or a leader whose replicas changed. The new
   * initiator follows the last item of the old order this copy ran, so
   * timestamps keep increasing. REQUIRES: on the site thread, after every
   * item of the old epoch this copy was given.
   */
  void lead(long epoch, CommitPipeline pipeline) {
    // The old pipeline may hold items released but not yet handed to its links (it batches until the site
    // runs dry): hand them on before this site stops feeding it.
    initiator.pipeline().siteIdle();
    leadershipLeft = false;
    following = false;
    final Initiator next = Initiator.forPartition(partition, epoch, pipeline);
    final TxnHeader last = lastReplicated;
    if (last != null) {
      next.adopt(last);
    } else if (initiator.lastRun() != null) {
      // The last item this copy sequenced, or replayed at recovery.
      next.adopt(new TxnHeader(initiator.lastRun(), initiator.lastTimestampMicros(), 0, catalog.version()));
    }
    initiator = next;
    lastReplicated = null;
    final RelayedDecision relay = decisionToRelay;
    decisionToRelay = null;
    if (relay != null) {
      pipeline.decide(next.nextHeader(catalog.version()), relay.decision(), relay.writeHash(), () -> { });
      pipeline.siteIdle();
    }
  }

  /** A decision this copy applied as a replica, to pass on as the first item once it leads. */
  private record RelayedDecision(PartDecision decision, long writeHash) {}

  /** Set on the site thread between a coordinator's decision on a held part and the switch to leading. */
  private RelayedDecision decisionToRelay;

  /**
   * This copy, promoted to lead its partition while it held a prepared part
   * as a replica, applied the decision the cluster's coordinator gave for it
   * (its old leader, gone, sent none): the partition's other copies hold the
   * same part from the old epoch and wait for a decision too, so the first
   * item this copy sequences once it leads ({@link #lead}, queued behind the
   * part) is that decision, with {@code writeHash} (the part's when
   * committed, else 0), before any new work (docs/cluster.md, "When a host
   * dies mid-transaction"). REQUIRES: on the site thread.
   */
  void relayOnLead(PartDecision decision, long writeHash) {
    decisionToRelay = new RelayedDecision(decision, writeHash);
  }

  /**
   * A checksum of every row of this copy now, with the last transaction it
   * ran: the first 8 bytes of a SHA-256 over the partition's snapshot
   * stream (docs/engine-formats.md), which two copies that ran the same
   * transactions produce byte for byte. Reads the whole partition in one go,
   * between two transactions. {@code leader}: whether this copy is the
   * partition's leader (for the report). REQUIRES: on the site thread.
   *
   * @throws IllegalStateException when a snapshot is being taken here
   */
  Database.CopyChecksum checksum(boolean leader) {
    if (snapshotSink != null) {
      throw new IllegalStateException("partition " + partition + " is taking a snapshot; ask again when it is over");
    }
    final MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    engine.beginSnapshot();
    for (byte[] chunk = engine.nextSnapshotChunk(SNAPSHOT_CHUNK_BYTES); chunk != null;
        chunk = engine.nextSnapshotChunk(SNAPSHOT_CHUNK_BYTES)) {
      digest.update(chunk);
    }
    final TxnId last = lastReplicated != null ? lastReplicated.id() : initiator.lastRun();
    return new Database.CopyChecksum(partition, leader, last,
        ByteBuffer.wrap(digest.digest()).getLong());
  }

  /**
   * This copy's snapshot chunks of {@code tables} (names as snapshot chunks
   * give them), made between two transactions: a new multi-partition
   * coordinator loads the replicated tables into its merge engine from them.
   * REQUIRES: on the site thread.
   */
  List<byte[]> chunksOf(java.util.Set<String> tables) {
    if (snapshotSink != null) {
      throw new IllegalStateException("partition " + partition + " is taking a snapshot; ask again when it is over");
    }
    final List<byte[]> chunks = new java.util.ArrayList<>();
    engine.beginSnapshot();
    for (byte[] chunk = engine.nextSnapshotChunk(SNAPSHOT_CHUNK_BYTES); chunk != null;
        chunk = engine.nextSnapshotChunk(SNAPSHOT_CHUNK_BYTES)) {
      if (tables.contains(SnapshotChunks.table(chunk))) {
        chunks.add(chunk);
      }
    }
    return chunks;
  }

  /** The version of this partition's catalog. REQUIRES: on the site thread. */
  long catalogVersion() {
    return catalog.version();
  }

  /** This partition's catalog. REQUIRES: on the site thread. */
  CatalogSnapshot catalogSnapshot() {
    return catalog;
  }

  /** REQUIRES: on the site thread. */
  ProcedureInstance instance(CompiledProcedure procedure) {
    return instances.computeIfAbsent(procedure, ProcedureInstance::create);
  }

  /**
   * The procedure a call admitted as {@code admitted} under catalog version
   * {@code admittedVersion} runs here: itself when this partition's catalog
   * is still that version, else the procedure of the same name in this
   * partition's catalog, provided it routes the same way (a call already on
   * this partition belongs here). REQUIRES: on the site thread.
   *
   * @throws ServerException PROCEDURE_NOT_FOUND when it was dropped, CATALOG_CHANGED
   *     (retriable) when it now routes differently
   */
  CompiledProcedure resolve(String name, CompiledProcedure admitted, long admittedVersion) {
    if (admittedVersion == catalog.version()) {
      return admitted;
    }
    final CompiledProcedure now = catalog.catalog().procedure(name).orElseThrow(() -> new ServerException(
        ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND, "procedure " + name + " does not exist (it was dropped by"
        + " catalog version " + catalog.version() + " before the call ran)"));
    if (now.singlePartition() != admitted.singlePartition()
        || now.singlePartition() && !now.partition().equals(admitted.partition())) {
      throw new ServerException(ErrorCode.ERROR_CODE_CATALOG_CHANGED, "procedure " + name + " was redeclared with"
          + " other partitioning by catalog version " + catalog.version() + " before the call ran; retry it");
    }
    return now;
  }

  /**
   * The ad-hoc statement a call admitted under {@code admittedVersion} runs
   * here: {@code admitted} when this partition's catalog is that version,
   * else {@code sql} planned again against this partition's catalog, which
   * must still place it on this partition. REQUIRES: on the site thread.
   *
   * @throws ServerException SQL_ERROR when it no longer plans, CATALOG_CHANGED when it now belongs elsewhere
   */
  ExecutableStatement replan(String sql, ExecutableStatement admitted, Object[] parameters, long admittedVersion) {
    if (admittedVersion == catalog.version()) {
      return admitted;
    }
    final ExecutableStatement now;
    try {
      now = adHocPlans.plan(sql, catalog.catalog());
    } catch (PlanningException e) {
      throw new ServerException(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage());
    }
    final PlannedStatement planned = now.planned();
    final boolean here = planned.distribution() == PlannedStatement.Distribution.ANY_PARTITION
        || planned.distribution() == PlannedStatement.Distribution.SINGLE_PARTITION
        && partitionMap.partitionOf(StatementPartitions.key(planned, parameters, now.name())) == partition;
    if (!here) {
      throw new ServerException(ErrorCode.ERROR_CODE_CATALOG_CHANGED, "the schema changed (catalog version "
          + catalog.version() + ") before the statement ran, and it no longer runs on one partition; retry it");
    }
    return now;
  }

  /**
   * Makes {@code next} this partition's catalog: the engine takes the new
   * engine catalog (keeping the data) and procedure instances of the old one
   * are forgotten. REQUIRES: on the site thread, no open transaction.
   */
  void takeCatalog(CatalogSnapshot next, byte[] engineCatalog) {
    engine.updateCatalog(engineCatalog);
    catalog = next;
    instances.clear();
  }

  /** As above, with {@code next}'s own engine catalog (a catalog put back after a roll back). */
  void takeCatalog(CatalogSnapshot next) {
    takeCatalog(next, next.catalog().engineCatalog().toByteArray());
  }

  /**
   * This copy's part of snapshot {@code name} taken across hosts, cut here
   * at the mark {@code cut} (docs/durability.md, "On a cluster"): a sink
   * from the host's {@code snapshots}, then {@link #beginDurableSnapshot} into it.
   * A copy that cannot begin fails its sink at once (the host's part fails
   * now rather than wait for this copy) and throws. REQUIRES: on the site
   * thread.
   */
  void beginCopySnapshot(CopySnapshots snapshots, String name, TxnId cut) {
    final SnapshotSink sink = snapshots.begin(name, partition, cut);
    try {
      beginDurableSnapshot(sink);
    } catch (RuntimeException e) {
      sink.failed(partition, e);
      throw e;
    }
  }

  /**
   * Fixes this partition's snapshot cut now, between two transactions, and
   * streams it to {@code sink} between the next ones. REQUIRES: on the site
   * thread.
   *
   * @throws IllegalStateException when a snapshot is already being taken
   */
  void beginSnapshot(SnapshotSink sink) {
    if (snapshotSink != null && snapshotSink.cancelled()) {
      snapshotSink = null;
      engine.abortSnapshot();
    }
    if (snapshotSink != null) {
      throw new IllegalStateException("partition " + partition + " is already taking a snapshot");
    }
    engine.beginSnapshot();
    snapshotSink = sink;
  }

  /**
   * {@link #beginSnapshot} for a snapshot into files, which keep the copy's
   * client de-duplication table with the rows: the table is encoded here,
   * at the same cut, and given to {@code sink} before any chunk
   * (docs/cluster.md, "Client de-duplication"). REQUIRES: on the site thread.
   */
  void beginDurableSnapshot(SnapshotSink sink) {
    beginSnapshot(sink);
    sink.dedupTable(partition, dedup.encode(DedupTable.MAX_FILE_ANSWER_BYTES));
  }

  /** Bytes of row images this partition keeps for the snapshot being taken (0 without one); any thread. */
  long snapshotKeptBytes() {
    return snapshotKeptBytes;
  }

  /**
   * Makes the next chunk of the snapshot and gives it to the sink, if it
   * takes one now, and publishes the memory its cut images take. Returns
   * true iff a chunk was made or the stream ended.
   */
  private boolean pumpSnapshot() {
    final boolean pumped = pumpSnapshotChunk();
    snapshotKeptBytes = snapshotSink == null ? 0 : engine.snapshotKeptBytes();
    return pumped;
  }

  private boolean pumpSnapshotChunk() {
    final SnapshotSink sink = snapshotSink;
    if (sink.cancelled()) {
      snapshotSink = null;
      engine.abortSnapshot();
      return true;
    }
    if (!sink.ready(partition)) {
      return false;
    }
    try {
      final long start = System.nanoTime();
      final long startCpu = THREAD_CPU.getCurrentThreadCpuTime();
      final byte[] chunk = engine.nextSnapshotChunk(SNAPSHOT_CHUNK_BYTES);
      if (chunk == null) {
        snapshotSink = null;
        sink.finished(partition);
      } else {
        sink.chunk(partition, chunk, System.nanoTime() - start, THREAD_CPU.getCurrentThreadCpuTime() - startCpu);
      }
    } catch (RuntimeException e) {
      snapshotSink = null;
      engine.abortSnapshot();
      sink.failed(partition, e);
    }
    return true;
  }

  /** Stops after the items already queued; waits for the thread. */
  void stop() throws InterruptedException {
    stopping = true;
    wake();
    LockSupport.unpark(thread);
    thread.join(STOP_REPORT_MILLIS);
    if (thread.isAlive()) {
      // A site that does not stop holds its host's shutdown (a host stopping to rejoin never returns): say where.
      LOG.severe("partition " + partition + ": its site has not stopped after " + STOP_REPORT_MILLIS + " ms; still"
          + " waiting for it; its thread is at:" + stackOf(thread));
      thread.join();
    }
  }

  private static String stackOf(Thread t) {
    final StringBuilder text = new StringBuilder();
    for (StackTraceElement frame : t.getStackTrace()) {
      text.append("\n    at ").append(frame);
    }
    return text.toString();
  }

  @Override
  public void run() {
    try {
      engine = PartitionEngine.open(catalog.catalog().engineCatalog().toByteArray(), partition,
          partitionMap.partitionCount(), PartitionEngine.DEFAULT_REQUEST_CAPACITY,
          PartitionEngine.DEFAULT_RESPONSE_CAPACITY, limits.memoryBytes());
      runningCall = RunningCall.onEngines(List.of(engine));
      context = new SinglePartitionContext(this);
      publishStats(System.nanoTime());
    } catch (RuntimeException e) {
      openFailure = e;
      return;
    } finally {
      opened.countDown();
    }
    try {
      runItems();
    } finally {
      refuseWaiting();
      if (snapshotSink != null) {
        snapshotSink.failed(partition, new IllegalStateException("partition " + partition + " stopped"));
        snapshotSink = null;
      }
      engine.close();
    }
  }

  /** Runs items until stopped with an empty queue; busy time is counted from leaving idle to the queue running dry. */
  private void runItems() {
    while (true) {
      WorkItem item = awaitItem();
      if (item == null) {
        return;
      }
      final long busyStart = System.nanoTime();
      long ran = 0;
      for (; item != null; item = queue.relaxedPoll()) {
        runOne(item);
        ran++;
        if (snapshotSink != null) {
          pumpSnapshot();
        }
      }
      // The queue ran dry: what the pipeline batched from these items leaves now.
      initiator.pipeline().siteIdle();
      final long now = System.nanoTime();
      busyNanos.addAndGet(now - busyStart);
      tasksRun.addAndGet(ran);
      statsStale = true;
      if (now - statsPublishedNanos >= STATS_INTERVAL_NANOS) {
        publishStats(now);
      }
    }
  }

  private void runOne(WorkItem item) {
    try {
      if (leadershipLeft && !following) {
        follow();
      }
      if (following && item instanceof MultiPartitionJoin join) {
        join.participant().refuse("this host's copy of partition " + partition + " handed its leadership over"
            + " before it reached the join");
        return;
      }
      if (following && item instanceof SequencedItem) {
        item.refuse(ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "this host's copy of partition "
            + partition + " no longer leads it (leadership handed over); the call was not run: send it to the "
            + "partition's leader"));
        return;
      }
      if (item instanceof SequencedItem && !(item instanceof MultiPartitionJoin)) {
        final String refusal = initiator.pipeline().refusal();
        if (refusal != null) {
          final ErrorCode code = initiator.pipeline().refusalCode();
          if (code == ErrorCode.ERROR_CODE_DISK_FULL && readsOnly(item)) {
            // No record: its answer still leaves only after every record this partition logged before it.
            item.run(this, initiator.nextHeader(catalog.version()));
            return;
          }
          item.refuse(ErrorTable.response(code, refusal));
          return;
        }
      }
      final TxnHeader header = item instanceof SequencedItem s ? initiator.sequence(s, catalog.version()) : null;
      item.run(this, header);
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "partition " + partition + ": " + item.getClass().getSimpleName() + " failed", e);
      item.refuse(ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL, "partition " + partition + " failed to run the"
          + " call: " + e));
    }
  }

  /**
   * Whether {@code item} is a single-partition call that only reads under
   * the catalog this partition runs (docs/durability.md, "A full disk"):
   * such a call may run without a record of its own while the log refuses
   * new records.
   */
  private boolean readsOnly(WorkItem item) {
    if (item instanceof ProcedureCall call) {
      return call.admittedVersion() == catalog.version() && call.admitted() != null && call.admitted().readOnly();
    }
    if (item instanceof AdHocCall call) {
      return call.admittedVersion() == catalog.version() && call.statement().planned().readOnly();
    }
    return false;
  }

  /**
   * How long an idle site parks unless a producer wakes it: every 10 ms
   * while it streams a snapshot (the sink does not wake it), until its
   * statistics are due ({@code statsDueNanos} from now; negative: none
   * due), and otherwise at most 250 ms, a bound on a missed wake-up.
   */
  static long idleParkNanos(boolean streamingSnapshot, long statsDueNanos) {
    final long bound = streamingSnapshot ? SNAPSHOT_PARK_NANOS : IDLE_PARK_NANOS;
    return statsDueNanos < 0 ? bound : Math.min(bound, statsDueNanos);
  }

  /** Answers whatever is still queued when the thread ends (interrupted): nothing is left unanswered. */
  private void refuseWaiting() {
    for (WorkItem item = queue.relaxedPoll(); item != null; item = queue.relaxedPoll()) {
      item.refuse(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN, "partition " + partition + " stopped"));
    }
  }

  /** The next item, spinning then parking while the queue is empty; null when stopped (or interrupted) with none left. */
  private WorkItem awaitItem() {
    for (int spins = 0; ; spins++) {
      final WorkItem item = queue.relaxedPoll();
      if (item != null) {
        return item;
      }
      if (stopping && queue.isEmpty()) {
        return null;
      }
      if (snapshotSink != null && pumpSnapshot()) {
        spins = 0;
        continue;
      }
      if (spins < IDLE_SPINS) {
        Thread.onSpinWait();
        continue;
      }
      long statsDueNanos = -1;
      if (statsStale) {
        // Idle: what the last items wrote is what ad-hoc planning should see, once the interval allows.
        final long now = System.nanoTime();
        statsDueNanos = statsPublishedNanos + IDLE_STATS_INTERVAL_NANOS - now;
        if (statsDueNanos <= 0) {
          publishStats(now);
          statsDueNanos = -1;
        }
      }
      final long parkNanos = idleParkNanos(snapshotSink != null, statsDueNanos);
      parked = true;
      final WorkItem late = queue.relaxedPoll();
      if (late != null) {
        parked = false;
        return late;
      }
      if (stopping) {
        parked = false;
        continue;
      }
      LockSupport.parkNanos(this, parkNanos);
      parked = false;
      if (Thread.currentThread().isInterrupted()) {
        return null;
      }
    }
  }
}
