package org.partita.server.database;

import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.client.PartitionHash;
import org.partita.proto.TableStatsList;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.SourceFile;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;

/**
 * An in-process Partita database: N partitions, each a site thread owning
 * its engine, and one coordinator thread for multi-partition work
 * (multi-partition procedures, ad-hoc SQL over several partitions, schema
 * changes). A single-partition call goes straight to its partition's queue,
 * chosen by {@link PartitionHash} over the procedure's partitioning
 * parameter. The network server puts a socket in front of this class.
 *
 * <p>Thread-safe: calls may come from any thread; answers complete the
 * returned futures on a site or coordinator thread.
 */
public final class Database implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Database.class.getName());
  /** Default bound of each site's queue. */
  public static final int DEFAULT_SITE_QUEUE_CAPACITY = Site.DEFAULT_QUEUE_CAPACITY;
  /** Default bound of multi-partition work waiting for the coordinator. */
  public static final int DEFAULT_COORDINATOR_CAPACITY = 1024;

  private final List<Site> sites = new ArrayList<>();
  private final ExecutorService coordinator =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "partita-coordinator"));
  private final AtomicLong lastTimestamp = new AtomicLong();
  // Multi-partition work accepted by offer* and not yet finished.
  private final AtomicInteger coordinatorBacklog = new AtomicInteger();
  private final AdHocPlans adHocPlans = new AdHocPlans();
  private final int coordinatorCapacity;
  // Written by the coordinator thread only; read by any caller.
  private volatile CompiledCatalog catalog;
  // Incremented (by the coordinator) each time the schema changes.
  private volatile long catalogVersion = 1;
  // Coordinator-confined.
  private final Map<CompiledProcedure, ProcedureInstance> coordinatorInstances = new IdentityHashMap<>();

  private Database(CompiledCatalog catalog, int coordinatorCapacity) {
    this.catalog = catalog;
    this.coordinatorCapacity = coordinatorCapacity;
  }

  /** Opens {@code partitions} partitions of {@code catalog} (empty tables) with default queue bounds. */
  public static Database open(CompiledCatalog catalog, int partitions) throws InterruptedException {
    return open(catalog, partitions, Site.DEFAULT_QUEUE_CAPACITY, DEFAULT_COORDINATOR_CAPACITY);
  }

  /**
   * Opens {@code partitions} partitions of {@code catalog} (empty tables);
   * each site queue holds at most {@code siteQueueCapacity} tasks (rounded
   * up to a power of two) and at most {@code coordinatorCapacity}
   * multi-partition calls wait for the coordinator.
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity,
      int coordinatorCapacity) throws InterruptedException {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    if (siteQueueCapacity < 2 || coordinatorCapacity < 1) {
      throw new IllegalArgumentException("queue capacities must be positive, got " + siteQueueCapacity + " and "
          + coordinatorCapacity);
    }
    final Database db = new Database(catalog, coordinatorCapacity);
    final byte[] bytes = catalog.engineCatalog().toByteArray();
    try {
      for (int p = 0; p < partitions; p++) {
        final Site site = new Site(p, partitions, bytes, siteQueueCapacity);
        site.start();
        db.sites.add(site);
      }
    } catch (RuntimeException | InterruptedException e) {
      db.close();
      throw e;
    }
    LOG.info("database open: " + partitions + " partition(s), " + catalog.schema().tables().size() + " table(s), "
        + catalog.procedures().size() + " procedure(s)");
    return db;
  }

  /** An empty database (no tables); build the schema with DDL through {@link #adHoc}. */
  public static Database openEmpty(int partitions) throws InterruptedException, DdlException {
    return open(new CatalogCompiler(Database.class.getClassLoader()).compile(List.of()), partitions);
  }

  public int partitionCount() {
    return sites.size();
  }

  public CompiledCatalog catalog() {
    return catalog;
  }

  /** The schema's version: 1 when opened, plus one for each schema change that committed. */
  public long catalogVersion() {
    return catalogVersion;
  }

  /** The site of a partition (for in-process benchmarks in this package). */
  Site site(int partition) {
    return sites.get(partition);
  }

  /** Calls a procedure; the future completes with its response (never exceptionally). */
  public CompletableFuture<ClientResponse> call(String procedureName, Object... arguments) {
    final CompiledProcedure procedure = catalog.procedure(procedureName).orElse(null);
    if (procedure == null) {
      return CompletableFuture.completedFuture(unknownProcedure(procedureName));
    }
    if (!procedure.singlePartition()) {
      return onCoordinator(() -> runMultiPartition(procedure, arguments));
    }
    final int partition;
    try {
      partition = partitionOfCall(procedure, arguments);
    } catch (ServerException e) {
      return CompletableFuture.completedFuture(ErrorTable.response(e));
    }
    final Site site = sites.get(partition);
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    final long timestamp = nextTimestamp();
    site.submit(() -> response.complete(site.context().run(procedure, arguments, timestamp)));
    return response;
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
  public boolean offerCall(String procedureName, Object[] arguments, Consumer<ClientResponse> done) {
    final CompiledProcedure procedure = catalog.procedure(procedureName).orElse(null);
    if (procedure == null) {
      done.accept(unknownProcedure(procedureName));
      return true;
    }
    if (!procedure.singlePartition()) {
      return offerToCoordinator(() -> runMultiPartition(procedure, arguments), done);
    }
    final int partition;
    try {
      partition = partitionOfCall(procedure, arguments);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    final Site site = sites.get(partition);
    final long timestamp = nextTimestamp();
    return site.offer(() -> done.accept(site.context().run(procedure, arguments, timestamp)));
  }

  /**
   * Runs one SQL statement as its own transaction, like {@link #adHoc}, but
   * without blocking: returns false iff the queue it needs is full (nothing
   * was run, {@code done} is not called).
   */
  public boolean offerAdHoc(String sql, Object[] parameters, Consumer<ClientResponse> done) {
    if (isDdl(sql)) {
      return offerToCoordinator(() -> changeSchema(sql), done);
    }
    final ExecutableStatement statement;
    try {
      statement = adHocPlans.plan(sql, catalog);
    } catch (PlanningException e) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage()));
      return true;
    }
    final PlannedStatement planned = statement.planned();
    final Site site;
    try {
      site = localSite(planned, parameters);
    } catch (ServerException e) {
      done.accept(Failures.response(e));
      return true;
    }
    if (site == null) {
      return offerToCoordinator(() -> runMultiPartition(statement, parameters), done);
    }
    final long timestamp = nextTimestamp();
    return site.offer(() -> done.accept(site.context().runStatement(statement, parameters, timestamp)));
  }

  private boolean offerToCoordinator(java.util.function.Supplier<ClientResponse> work, Consumer<ClientResponse> done) {
    if (coordinatorBacklog.incrementAndGet() > coordinatorCapacity) {
      coordinatorBacklog.decrementAndGet();
      return false;
    }
    try {
      coordinator.execute(() -> {
        ClientResponse response;
        try {
          response = work.get();
        } catch (RuntimeException e) {
          response = Failures.response(e);
        }
        coordinatorBacklog.decrementAndGet();
        done.accept(response);
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      coordinatorBacklog.decrementAndGet();
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN, "the database is closing"));
    }
    return true;
  }

  private static ClientResponse unknownProcedure(String name) {
    return ErrorTable.response(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND, "procedure " + name + " does not exist");
  }

  /** Queue depth, capacity, busy time and tasks run of one partition's site; any thread. */
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
    return coordinatorCapacity;
  }

  /** Multi-partition calls accepted and not yet finished. */
  public int coordinatorBacklog() {
    return coordinatorBacklog.get();
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
      final Runnable read = () -> {
        try {
          part.complete(site.tableStats());
        } catch (RuntimeException e) {
          part.completeExceptionally(e);
        }
      };
      if (!site.offer(read)) {
        return null;
      }
      parts.add(part);
    }
    return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
        .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
  }

  /** Calls a procedure and waits for its response. */
  public ClientResponse callSync(String procedureName, Object... arguments) {
    return call(procedureName, arguments).join();
  }

  private int partitionOfCall(CompiledProcedure procedure, Object[] arguments) {
    final int index = procedure.partition().parameterIndex();
    if (arguments == null || arguments.length <= index) {
      throw ServerException.badParameter("procedure " + procedure.name() + " is partitioned on"
          + " parameter " + (index + 1) + " but " + (arguments == null ? 0 : arguments.length) + " were given");
    }
    final Object key = ParameterConverter.partitionValue(arguments[index], procedure.partition().columnType(),
        "procedure " + procedure.name(), index + 1);
    return PartitionHash.partition(key, sites.size());
  }

  /**
   * Runs one SQL statement as its own transaction: a query or DML (on one
   * partition when its WHERE or VALUES fixes the partitioning column, else
   * through the coordinator), or DDL that changes the schema.
   */
  public CompletableFuture<ClientResponse> adHoc(String sql, Object... parameters) {
    if (isDdl(sql)) {
      return onCoordinator(() -> changeSchema(sql));
    }
    final ExecutableStatement statement;
    try {
      statement = adHocPlans.plan(sql, catalog);
    } catch (PlanningException e) {
      return CompletableFuture.completedFuture(ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage()));
    }
    final PlannedStatement planned = statement.planned();
    final long timestamp = nextTimestamp();
    final Site site;
    try {
      site = localSite(planned, parameters);
    } catch (ServerException e) {
      return CompletableFuture.completedFuture(Failures.response(e));
    }
    if (site == null) {
      return onCoordinator(() -> runMultiPartition(statement, parameters));
    }
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    site.submit(() -> response.complete(site.context().runStatement(statement, parameters, timestamp)));
    return response;
  }

  public ClientResponse adHocSync(String sql, Object... parameters) {
    return adHoc(sql, parameters).join();
  }

  /** The site that can run a statement alone, or null when it needs the coordinator. */
  private Site localSite(PlannedStatement planned, Object[] parameters) {
    switch (planned.distribution()) {
      case ANY_PARTITION:
        return sites.get(0);
      case SINGLE_PARTITION:
        return sites.get(StatementPartitions.partition(planned, parameters, "statement", sites.size()));
      default:
        return null;
    }
  }

  private static boolean isDdl(String sql) {
    final String head = sql.stripLeading().toUpperCase(Locale.ROOT);
    return head.startsWith("CREATE") || head.startsWith("DROP") || head.startsWith("PARTITION")
        || head.startsWith("ALTER");
  }

  private CompletableFuture<ClientResponse> onCoordinator(java.util.function.Supplier<ClientResponse> work) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        return work.get();
      } catch (RuntimeException e) {
        return Failures.response(e);
      }
    }, coordinator);
  }

  private List<Participant> holdAll() {
    final List<Participant> participants = new ArrayList<>();
    sites.forEach(site -> participants.add(Participant.hold(site)));
    return participants;
  }

  /** The body of a multi-partition transaction: its result tables. */
  private interface TransactionBody {
    List<org.partita.client.ResultTable> run(MultiPartitionContext context) throws Throwable;
  }

  private ClientResponse runMultiPartition(CompiledProcedure procedure, Object[] arguments) {
    return runMultiPartition(context -> {
      if (procedure.isSql()) {
        context.queue(ExecutableStatement.of(procedure.statements().get(CompiledProcedure.SQL_STATEMENT)), arguments);
        return List.of(context.execute(true));
      }
      final ProcedureInstance instance = coordinatorInstances.computeIfAbsent(procedure, ProcedureInstance::create);
      context.bindInstance(instance);
      return Invocations.runJava(procedure, instance, context, arguments);
    });
  }

  private ClientResponse runMultiPartition(ExecutableStatement statement, Object[] parameters) {
    return runMultiPartition(context -> {
      context.queue(statement, parameters);
      return List.of(context.execute(true));
    });
  }

  /** Holds every partition, runs {@code body}, commits everywhere or rolls back everywhere. */
  private ClientResponse runMultiPartition(TransactionBody body) {
    final List<Participant> participants = holdAll();
    final MultiPartitionContext context = new MultiPartitionContext(participants, nextTimestamp());
    try {
      final List<org.partita.client.ResultTable> results = body.run(context);
      context.finish(true);
      return context.withAppStatus(ClientResponse.success(results));
    } catch (Throwable t) {
      context.finish(false);
      return context.withAppStatus(Failures.response(t));
    } finally {
      participants.forEach(Participant::release);
    }
  }

  /** Applies DDL to every partition, or to none. Runs on the coordinator. */
  private ClientResponse changeSchema(String ddl) {
    final CompiledCatalog current = catalog;
    final CompiledCatalog next;
    try {
      next = new CatalogCompiler(current.classLoader()).apply(current, new SourceFile("@AdHoc", ddl));
    } catch (DdlException e) {
      return ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage());
    }
    final byte[] nextBytes = next.engineCatalog().toByteArray();
    final byte[] currentBytes = current.engineCatalog().toByteArray();
    final List<Participant> participants = holdAll();
    final List<Participant> updated = new ArrayList<>();
    try {
      for (Participant participant : participants) {
        participant.call(engine -> {
          engine.updateCatalog(nextBytes);
          participant.site().clearInstances();
          return null;
        }).join();
        updated.add(participant);
      }
      catalog = next;
      catalogVersion++;
      coordinatorInstances.clear();
      return ClientResponse.success(List.of());
    } catch (RuntimeException e) {
      for (Participant participant : updated) {
        participant.call(engine -> {
          engine.updateCatalog(currentBytes);
          return null;
        }).join();
      }
      return Failures.response(e);
    } finally {
      participants.forEach(Participant::release);
    }
  }

  /** Unique, increasing transaction timestamps in µs since the epoch. */
  private long nextTimestamp() {
    final long now = System.currentTimeMillis() * 1000;
    return lastTimestamp.updateAndGet(last -> Math.max(last + 1, now));
  }

  @Override
  public void close() throws InterruptedException {
    coordinator.shutdown();
    coordinator.awaitTermination(1, TimeUnit.MINUTES);
    for (Site site : sites) {
      site.stop();
    }
    LOG.info("database closed");
  }
}
