package org.partita.server.database;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStatsList;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.TableStatistics;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.Invocation;

/**
 * An in-process Partita database: the partitions of one host, each a site
 * thread owning its engine, its catalog snapshot and its initiator, and one
 * multi-partition coordinator. This class is the router in front of them
 * (docs/database.md, "A transaction's life"): it resolves each call's
 * procedure against the current catalog, places a single-partition call on
 * its partition through the {@link PartitionMap} (the partitioning
 * parameter is the only one decoded here), and sends multi-partition work
 * and schema changes to the coordinator. The network server, HTTP and the
 * in-process API all hand it {@link Invocation}s.
 *
 * <p>Thread-safe: calls may come from any thread; answers complete on a
 * site or coordinator thread (or at once on the caller's thread when a call
 * is refused before it runs).
 */
public final class Database implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Database.class.getName());
  /** Default bound of each site's queue. */
  public static final int DEFAULT_SITE_QUEUE_CAPACITY = Site.DEFAULT_QUEUE_CAPACITY;
  /** Default bound of multi-partition work waiting for the coordinator. */
  public static final int DEFAULT_COORDINATOR_CAPACITY = 1024;
  /** The client id of calls made through this class's in-process methods. */
  public static final long IN_PROCESS_CLIENT = 0;
  private static final int HOST_ID = 0;

  private final List<Site> sites = new ArrayList<>();
  private final PartitionMap map;
  private final AdHocPlans adHocPlans = new AdHocPlans(new RowCounts(sites));
  private final AtomicLong inProcessSequence = new AtomicLong();
  private final AtomicInteger nextAnyPartition = new AtomicInteger();
  private MpCoordinator coordinator;
  // Published by the coordinator after every partition took it; read by any caller.
  private volatile CatalogSnapshot catalog;

  private Database(CompiledCatalog catalog, PartitionMap map) {
    this.catalog = new CatalogSnapshot(catalog, 1);
    this.map = map;
  }

  /** Opens {@code partitions} partitions of {@code catalog} (empty tables) with default queue bounds. */
  public static Database open(CompiledCatalog catalog, int partitions) throws InterruptedException {
    return open(catalog, partitions, Site.DEFAULT_QUEUE_CAPACITY, DEFAULT_COORDINATOR_CAPACITY);
  }

  /**
   * Opens {@code partitions} partitions of {@code catalog} (empty tables);
   * each site queue holds at most {@code siteQueueCapacity} items (rounded
   * up to a power of two) and at most {@code coordinatorCapacity}
   * multi-partition calls wait for the coordinator.
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity,
      int coordinatorCapacity) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, ImmediateCommitPipeline.INSTANCE);
  }

  /** As {@link #open(CompiledCatalog, int, int, int)}, every partition's answers passing through {@code pipeline}. */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, pipeline, QueryLimits.EMBEDDED, 1);
  }

  /**
   * As {@link #open(CompiledCatalog, int, int, int, CommitPipeline)}, every
   * transaction bounded by {@code limits} (a server's --query-timeout and
   * --query-memory); the other overloads use {@link QueryLimits#EMBEDDED}.
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline, QueryLimits limits) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, pipeline, limits, 1);
  }

  /**
   * As {@link #open(CompiledCatalog, int, int, int, CommitPipeline,
   * QueryLimits)}, every initiator in {@code epoch} (a host restarting on
   * its command log begins the epoch after the log's last;
   * docs/durability.md).
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline, QueryLimits limits, long epoch) throws InterruptedException {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    if (siteQueueCapacity < 2 || coordinatorCapacity < 1) {
      throw new IllegalArgumentException("queue capacities must be positive, got " + siteQueueCapacity + " and "
          + coordinatorCapacity);
    }
    final Database db = new Database(catalog, PartitionMap.singleHost(partitions, HOST_ID));
    try {
      for (int p = 0; p < partitions; p++) {
        final Site site = new Site(p, db.map, db.catalog, db.adHocPlans, siteQueueCapacity, pipeline,
            limits, epoch);
        site.start();
        db.sites.add(site);
      }
    } catch (RuntimeException | InterruptedException e) {
      db.close();
      throw e;
    }
    db.coordinator = new MpCoordinator(coordinatorCapacity, List.copyOf(db.sites), db.map, db.catalog, db.adHocPlans,
        next -> db.catalog = next, limits, epoch, pipeline);
    LOG.info("database open: " + partitions + " partition(s), " + catalog.schema().tables().size() + " table(s), "
        + catalog.procedures().size() + " procedure(s)");
    return db;
  }

  /** An empty database (no tables); build the schema with DDL through {@link #adHoc}. */
  public static Database openEmpty(int partitions) throws InterruptedException, DdlException {
    return open(new CatalogCompiler(Database.class.getClassLoader()).compile(List.of()), partitions);
  }

  public int partitionCount() {
    return map.partitionCount();
  }

  /** Where every key and partition lives. */
  public PartitionMap partitionMap() {
    return map;
  }

  public CompiledCatalog catalog() {
    return catalog.catalog();
  }

  /** The schema's version: 1 when opened, plus one for each schema change that committed. */
  public long catalogVersion() {
    return catalog.version();
  }

  /**
   * The table row counts ad-hoc SQL is planned with now (sums of the
   * partitions' engine statistics, refreshed as sites run): what
   * {@code @Explain} plans with too, so it shows the order ad-hoc SQL runs in.
   */
  public TableStatistics adHocStatistics() {
    return adHocPlans.rowCounts(catalog.catalog());
  }

  /**
   * Recovery's entry: replays logged work items in log order before the
   * database serves anyone (docs/durability.md). One replay per opening.
   */
  public LogReplay replayer() {
    return new LogReplay(this, List.copyOf(sites), coordinator);
  }

  CatalogSnapshot catalogSnapshot() {
    return catalog;
  }

  AdHocPlans adHocPlans() {
    return adHocPlans;
  }

  /** Calls a procedure; the future completes with its response (never exceptionally). */
  public CompletableFuture<ClientResponse> call(String procedureName, Object... arguments) {
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    final Invocation invocation;
    try {
      invocation = Invocation.of(procedureName, arguments, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
    } catch (ServerException e) {
      response.complete(ErrorTable.response(e));
      return response;
    }
    route(invocation, response::complete, true);
    return response;
  }

  /** Calls a procedure and waits for its response. */
  public ClientResponse callSync(String procedureName, Object... arguments) {
    return call(procedureName, arguments).join();
  }

  /**
   * Routes a call without blocking, as {@link #offerCall(Invocation, Consumer)},
   * encoding {@code arguments} first (a parameter with no wire form is
   * answered BAD_PARAMETER).
   */
  public boolean offerCall(String procedureName, Object[] arguments, Consumer<ClientResponse> done) {
    final Invocation invocation;
    try {
      invocation = Invocation.of(procedureName, arguments, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return offerCall(invocation, done);
  }

  /**
   * Routes a call without blocking: a single-partition call is offered to
   * its partition's queue, a multi-partition one to the coordinator. Returns
   * false iff that queue is full, in which case nothing was run and
   * {@code done} is not called (the caller retries later: backpressure).
   * Otherwise {@code done} gets the response exactly once, on a site or
   * coordinator thread, or at once on this thread when the call is rejected
   * before running (unknown procedure, bad partitioning parameter).
   */
  public boolean offerCall(Invocation invocation, Consumer<ClientResponse> done) {
    return route(invocation, done, false);
  }

  private boolean route(Invocation invocation, Consumer<ClientResponse> done, boolean mayWait) {
    if (refusedTimeout(invocation, done)) {
      return true;
    }
    final CatalogSnapshot snapshot = catalog;
    final CompiledProcedure procedure = snapshot.catalog().procedure(invocation.procedure()).orElse(null);
    if (procedure == null) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND,
          "procedure " + invocation.procedure() + " does not exist"));
      return true;
    }
    if (!procedure.singlePartition()) {
      return toCoordinator(new MpCoordinator.Call(invocation, done), mayWait);
    }
    final int partition;
    try {
      partition = partitionOfCall(procedure, invocation);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return enqueue(sites.get(partition), new ProcedureCall(invocation, procedure, snapshot.version(), done), mayWait);
  }

  /** Answers BAD_PARAMETER iff the call asks for a time limit over the longest allowed; returns whether it did. */
  private static boolean refusedTimeout(Invocation invocation, Consumer<ClientResponse> done) {
    final String refusal = QueryLimits.checkRequested(invocation.timeoutMillis());
    if (refusal == null) {
      return false;
    }
    done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_PARAMETER, refusal + "; the call to "
        + invocation.procedure() + " was not run"));
    return true;
  }

  /**
   * Cancels what runs for client {@code clientId} now: its call running on any
   * partition or on the coordinator (docs/system-procedures.md,
   * {@code @CancelQuery}). Calls still queued are not touched. Any thread.
   *
   * @return the calls cancelled (one per partition or coordinator that ran one)
   */
  public List<Invocation> cancelClient(long clientId) {
    final List<Invocation> cancelled = new ArrayList<>();
    for (Site site : sites) {
      addIfCancelled(cancelled, site.runningCall(), clientId);
    }
    final Invocation mp = coordinator.cancel(clientId);
    if (mp != null) {
      cancelled.add(mp);
    }
    return cancelled;
  }

  /**
   * Cancels whatever call partition {@code partition} runs now, whoever's
   * (a multi-partition call it serves is cancelled everywhere). Any thread.
   *
   * @return the cancelled call, or null when the partition ran none
   * @throws IllegalArgumentException when there is no such partition
   */
  public Invocation cancelPartition(int partition) {
    if (partition < 0 || partition >= sites.size()) {
      throw new IllegalArgumentException("no partition " + partition + " (partitions are 0 to "
          + (sites.size() - 1) + ")");
    }
    final RunningCall running = sites.get(partition).runningCall();
    return running == null ? null : running.cancelAny();
  }

  private static void addIfCancelled(List<Invocation> out, RunningCall running, long clientId) {
    final Invocation cancelled = running == null ? null : running.cancel(clientId);
    if (cancelled != null) {
      out.add(cancelled);
    }
  }

  /** The partition of a single-partition call: its partitioning parameter through the partition map. */
  private int partitionOfCall(CompiledProcedure procedure, Invocation invocation) {
    final int index = procedure.partition().parameterIndex();
    if (invocation.parameterCount() <= index) {
      throw ServerException.badParameter("procedure " + procedure.name() + " is partitioned on parameter "
          + (index + 1) + " but " + invocation.parameterCount() + " were given");
    }
    final Object key = ParameterConverter.partitionValue(invocation.parameter(index),
        procedure.partition().columnType(), "procedure " + procedure.name(), index + 1);
    return map.partitionOf(key);
  }

  /**
   * Runs one SQL statement as its own transaction: a query or DML (on one
   * partition when its WHERE or VALUES fixes the partitioning column, else
   * through the coordinator), or DDL that changes the schema.
   */
  public CompletableFuture<ClientResponse> adHoc(String sql, Object... parameters) {
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    final Invocation invocation;
    try {
      invocation = adHocInvocation(sql, parameters);
    } catch (ServerException e) {
      response.complete(ErrorTable.response(e));
      return response;
    }
    routeAdHoc(invocation, sql, parameters == null ? new Object[0] : parameters, response::complete, true);
    return response;
  }

  public ClientResponse adHocSync(String sql, Object... parameters) {
    return adHoc(sql, parameters).join();
  }

  /**
   * Runs one SQL statement as its own transaction, like {@link #adHoc}, but
   * without blocking: returns false iff the queue it needs is full (nothing
   * was run, {@code done} is not called).
   */
  public boolean offerAdHoc(String sql, Object[] parameters, Consumer<ClientResponse> done) {
    final Invocation invocation;
    try {
      invocation = adHocInvocation(sql, parameters);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return offerAdHoc(invocation, sql, parameters == null ? new Object[0] : parameters, done);
  }

  /**
   * {@link #offerAdHoc(String, Object[], Consumer)} for an {@code @AdHoc}
   * invocation a front end received, already decoded into its SQL text and
   * parameters.
   */
  public boolean offerAdHoc(Invocation invocation, String sql, Object[] parameters, Consumer<ClientResponse> done) {
    return routeAdHoc(invocation, sql, parameters, done, false);
  }

  private Invocation adHocInvocation(String sql, Object[] parameters) {
    final Object[] values = new Object[1 + (parameters == null ? 0 : parameters.length)];
    values[0] = sql;
    if (parameters != null) {
      System.arraycopy(parameters, 0, values, 1, parameters.length);
    }
    return Invocation.of("@AdHoc", values, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
  }

  private boolean routeAdHoc(Invocation invocation, String sql, Object[] parameters, Consumer<ClientResponse> done,
      boolean mayWait) {
    if (refusedTimeout(invocation, done)) {
      return true;
    }
    if (isDdl(sql)) {
      return toCoordinator(new MpCoordinator.Ddl(invocation, sql, done), mayWait);
    }
    final CatalogSnapshot snapshot = catalog;
    final ExecutableStatement statement;
    try {
      statement = adHocPlans.plan(sql, snapshot.catalog());
    } catch (PlanningException e) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage()));
      return true;
    }
    final PlannedStatement planned = statement.planned();
    final int partition;
    try {
      partition = localPartition(planned, parameters);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    if (partition < 0) {
      return toCoordinator(new MpCoordinator.Statement(invocation, sql, statement, parameters, snapshot.version(),
          done), mayWait);
    }
    return enqueue(sites.get(partition), new AdHocCall(invocation, sql, statement, parameters, snapshot.version(),
        done), mayWait);
  }

  /**
   * The partition that can run a statement alone, or -1 when it needs the
   * coordinator. Reads of replicated tables only (ANY_PARTITION) take the
   * partitions in turn.
   */
  private int localPartition(PlannedStatement planned, Object[] parameters) {
    switch (planned.distribution()) {
      case ANY_PARTITION:
        return Math.floorMod(nextAnyPartition.getAndIncrement(), map.partitionCount());
      case SINGLE_PARTITION:
        return StatementPartitions.partition(planned, parameters, "statement", map);
      default:
        return -1;
    }
  }

  /**
   * Whether {@code sql} is a schema change (DDL, roles and grants included), which @AdHoc
   * runs through the catalog compiler rather than the planner.
   */
  public static boolean isDdl(String sql) {
    final String head = sql.stripLeading().toUpperCase(Locale.ROOT);
    return head.startsWith("CREATE") || head.startsWith("DROP") || head.startsWith("PARTITION")
        || head.startsWith("ALTER") || head.startsWith("GRANT") || head.startsWith("REVOKE");
  }

  /**
   * Whether ad-hoc statement {@code sql} (not DDL) only reads, from its plan (cached for the run
   * that follows). A statement that does not plan counts as a read: it fails the same way when run.
   */
  public boolean adHocReadOnly(String sql) {
    try {
      return adHocPlans.plan(sql, catalog.catalog()).planned().readOnly();
    } catch (PlanningException e) {
      return true;
    }
  }

  private static boolean enqueue(Site site, WorkItem item, boolean mayWait) {
    if (mayWait) {
      site.submit(item);
      return true;
    }
    return site.offer(item);
  }

  private boolean toCoordinator(MpCoordinator.Request request, boolean mayWait) {
    if (mayWait) {
      coordinator.submit(request);
      return true;
    }
    return coordinator.offer(request);
  }

  /** Queue depth, capacity, busy time and items run of one partition's site; any thread. */
  public record PartitionStatus(int partition, int queueDepth, int queueCapacity, long busyNanos, long tasksRun) {}

  /** The status of every partition, in partition order. */
  public List<PartitionStatus> partitionStatuses() {
    final List<PartitionStatus> out = new ArrayList<>(sites.size());
    for (Site s : sites) {
      out.add(new PartitionStatus(s.partition(), s.queueDepth(), s.queueCapacity(), s.busyNanos(), s.tasksRun()));
    }
    return out;
  }

  /** The most multi-partition calls that may wait for the coordinator. */
  public int coordinatorCapacity() {
    return coordinator.capacity();
  }

  /** Multi-partition calls accepted and not yet finished. */
  public int coordinatorBacklog() {
    return coordinator.backlog();
  }

  /**
   * Rows and memory of every table in every partition, read on each site's
   * thread, in partition order. Never blocks: returns null iff some site's
   * queue was full (the partitions already asked answer into a future
   * nobody reads; reading statistics has no effect).
   */
  public CompletableFuture<List<TableStatsList>> offerTableStats() {
    final List<CompletableFuture<TableStatsList>> parts = new ArrayList<>();
    for (Site site : sites) {
      final CompletableFuture<TableStatsList> part = new CompletableFuture<>();
      if (!site.offer(new SiteRead(part))) {
        return null;
      }
      parts.add(part);
    }
    return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
        .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
  }

  @Override
  public void close() throws InterruptedException {
    if (coordinator != null) {
      coordinator.close();
    }
    for (Site site : sites) {
      site.stop();
    }
    LOG.info("database closed");
  }
}
