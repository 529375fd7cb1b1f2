package org.partita.server.sysproc;

import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import java.util.List;
import java.util.function.Supplier;
import org.partita.server.database.Database;
import org.partita.server.security.UserDirectory;
import org.partita.server.txn.Invocation;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.stats.ConnectionSnapshot;
import org.partita.server.stats.ProcedureStatistics;

/**
 * The system procedures: every call whose name starts with '@' (docs/system-procedures.md).
 *
 * <ul>
 *   <li>{@code @AdHoc(sql [, parameters...])} — one SQL statement (query, DML or DDL) as its own transaction</li>
 *   <li>{@code @Explain(sql)}, {@code @ExplainProc(procedure)} — plans as text</li>
 *   <li>{@code @Statistics(selector [, interval])} — PROCEDURE, LATENCY, TABLE, PARTITION, MEMORY, CONNECTIONS,
 *       TOPO, COMMANDLOG, SNAPSHOT, CHECKSUM, CLUSTER</li>
 *   <li>{@code @SystemCatalog(selector)} — TABLES, COLUMNS, INDEXES, PROCEDURES, HOSTS, PARTITIONS</li>
 *   <li>{@code @CancelQuery([partition])} — stops the caller's running calls, or whatever a partition runs</li>
 *   <li>{@code @SnapshotSave([path])}, {@code @SnapshotStatus()}, {@code @SnapshotRestore(path)} — snapshots</li>
 *   <li>{@code @Ping}, {@code @Shutdown}</li>
 * </ul>
 *
 * <p>Names match case-insensitively. An unknown name is REJECTED NOT_FOUND
 * listing the system procedures; a wrong parameter count or type is REJECTED
 * BAD_PARAMETER naming the procedure, the position and what was expected.
 *
 * <p>Thread-safe; calls come from any thread (usually a network event loop)
 * and do not block it.
 */
public final class SystemProcedures {
  private final Choices<SystemProcedure> procedures = new Choices<>();
  private final StatsCluster cluster;

  /**
   * @param database the database calls run against
   * @param statistics the figures behind {@code @Statistics PROCEDURE} and {@code LATENCY}
   * @param connections the open client connections, for {@code @Statistics CONNECTIONS}; any thread
   * @param identity this server's id, address, ports and start, for {@code @Ping} and {@code HOSTS}
   * @param shutdown stops the server; {@code @Shutdown} runs it once, on a new thread, after answering
   */
  public SystemProcedures(Database database, ProcedureStatistics statistics,
      Supplier<List<ConnectionSnapshot>> connections, Supplier<ServerIdentity> identity, Runnable shutdown) {
    this(database, statistics, connections, identity, shutdown, () -> LogFigures.OFF);
  }

  /**
   * As the other constructor, with the command log's figures for
   * {@code @Statistics COMMANDLOG} (any thread).
   */
  public SystemProcedures(Database database, ProcedureStatistics statistics,
      Supplier<List<ConnectionSnapshot>> connections, Supplier<ServerIdentity> identity, Runnable shutdown,
      Supplier<LogFigures> commandLog) {
    this(database, statistics, connections, identity, shutdown, commandLog, Snapshots.NONE);
  }

  /**
   * As the other constructors, with the host's snapshots for
   * {@code @SnapshotSave}, {@code @SnapshotStatus} and {@code @Statistics SNAPSHOT}.
   */
  public SystemProcedures(Database database, ProcedureStatistics statistics,
      Supplier<List<ConnectionSnapshot>> connections, Supplier<ServerIdentity> identity, Runnable shutdown,
      Supplier<LogFigures> commandLog, Snapshots snapshots) {
    final SnapshotStatus snapshotStatus = new SnapshotStatus(snapshots);
    this.cluster = new StatsCluster(statistics, () -> singleHost(database, identity.get()), System::nanoTime);
    final Choices<StatisticsSelector> statisticsSelectors = new Choices<StatisticsSelector>()
        .add("PROCEDURE", new StatsProcedures(statistics))
        .add("LATENCY", new StatsLatency(statistics))
        .add("TABLE", new StatsTables(database))
        .add("PARTITION", new StatsPartitions(database, System::nanoTime))
        .add("MEMORY", new StatsMemory(database))
        .add("CONNECTIONS", new StatsConnections(connections))
        .add("TOPO", new StatsTopology(database, identity))
        .add("COMMANDLOG", new StatsCommandLog(commandLog))
        .add("SNAPSHOT", snapshotStatus)
        .add("CHECKSUM", new StatsChecksum(database))
        .add("CLUSTER", cluster);
    final Choices<CatalogSelector> catalogSelectors = new Choices<CatalogSelector>()
        .add("TABLES", new CatalogTables())
        .add("COLUMNS", new CatalogColumns())
        .add("INDEXES", new CatalogIndexes())
        .add("PROCEDURES", new CatalogProcedures())
        .add("HOSTS", new CatalogHosts(database, identity))
        .add("PARTITIONS", new CatalogPartitions(database, identity));
    for (SystemProcedure p : List.of(new AdHoc(database), new Explain(database), new ExplainProc(database),
        new Statistics(statisticsSelectors), new SystemCatalog(database, catalogSelectors), new Ping(identity),
        new Shutdown(shutdown), new CancelQuery(database), new SnapshotSave(snapshots), snapshotStatus,
        new SnapshotRestore(snapshots))) {
      procedures.add(p.name(), p);
    }
  }

  /**
   * Adds {@code @UpdateUser} and {@code @DropUser}, which change {@code users}
   * at run time (security on only; docs/security.md). Call before serving.
   */
  public void enableUserAdministration(UserDirectory users) {
    for (SystemProcedure p : List.of(new UpdateUser(users), new DropUser(users))) {
      procedures.add(p.name(), p);
    }
  }

  /**
   * Makes {@code @Statistics CLUSTER} answer from {@code status} (a cluster
   * host's view of the metadata it follows; any thread, never blocks)
   * instead of a cluster of this one server. Call before serving.
   */
  public void followCluster(Supplier<ClusterStatus> status) {
    cluster.follow(status);
  }

  /** A single server as a cluster of one host serving every partition. */
  private static ClusterStatus singleHost(Database database, ServerIdentity self) {
    final String client = self.clientPort() > 0 ? self.address() + ":" + self.clientPort() : "";
    final String http = self.httpPort() > 0 ? self.address() + ":" + self.httpPort() : "";
    return new ClusterStatus(self.hostId(), 0, database.partitionMap(), List.of(new ClusterStatus.Host(self.hostId(),
        ClusterStatus.HostState.SERVING, 0, client, http)), List.of());
  }

  /** Whether {@code procedure} names a system procedure (starts with '@'), known or not. */
  public static boolean isSystemProcedure(String procedure) {
    return procedure != null && procedure.startsWith("@");
  }

  /**
   * Runs system procedure {@code name} with the Dispatcher's contract:
   * returns false iff a queue it needs is full, in which case nothing was run
   * and {@code handler} is not called (backpressure). Otherwise returns true
   * and answers {@code handler} exactly once, on any thread (possibly this
   * one, before returning); failures are responses, never exceptions.
   */
  public boolean call(String name, Object[] parameters, ResponseHandler handler) {
    return call(name, parameters, null, handler);
  }

  /**
   * {@link #call(String, Object[], ResponseHandler)} for an invocation a
   * front end received: its parameters are decoded here (system procedures
   * run on the caller's thread or hand the invocation on, as @AdHoc does).
   */
  public boolean call(Invocation invocation, ResponseHandler handler) {
    final Object[] parameters;
    try {
      parameters = invocation.parameters();
    } catch (ServerException e) {
      handler.onResponse(ErrorTable.response(e));
      return true;
    }
    return call(invocation.procedure(), parameters, invocation, handler);
  }

  private boolean call(String name, Object[] parameters, Invocation invocation, ResponseHandler handler) {
    final SystemProcedure procedure = procedures.find(name);
    if (procedure == null) {
      handler.onResponse(Answers.rejected(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND, "system procedure " + name + " does not exist; system"
          + " procedures: " + procedures.names()));
      return true;
    }
    final OnceHandler once = new OnceHandler(handler);
    try {
      return procedure.call(new Parameters(procedure.name(), parameters, invocation), once);
    } catch (ServerException e) {
      once.onResponse(ErrorTable.response(e));
    } catch (RuntimeException e) {
      once.onResponse(Answers.unexpected(procedure.name(), e));
    }
    return true;
  }

  /** The system procedures' names, comma-separated ("@AdHoc, @Explain, ..."). */
  public String names() {
    return procedures.names();
  }
}
