package org.partita.server.database;

import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.engine.EngineException;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.procedure.ParameterBuffer;
import org.partita.server.procedure.ProcedureBinding;
import org.partita.server.procedure.ProcedureContext;
import org.partita.server.procedure.SqlStmt;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnHeader;

/**
 * Runs single-partition transactions on a site's thread: a procedure's
 * batches go to the local engine, one engine call per batch. Site-confined
 * and reused for every transaction of the site.
 */
final class SinglePartitionContext implements ProcedureContext {
  /** Batches of more statements than this get new tables from executeReusingTables. */
  private static final int MAX_REUSED_BATCH = 8;

  private final Site site;
  private final List<ExecutableStatement> pendingStatements = new ArrayList<>();
  private final ParameterBuffer parameters = new ParameterBuffer();
  private final Random random = new Random();
  private final ResultArena resultArena = new ResultArena();
  // The reusable tables of executeReusingTables, by the batch's statement count (1 to MAX_REUSED_BATCH).
  private final ResultTable[][] reusableTables = new ResultTable[MAX_REUSED_BATCH + 1][];
  private ProcedureInstance instance;
  private TimeBudget budget = TimeBudget.NONE;
  // What budget is during a transaction with a time limit, restarted for each.
  private final TimeBudget reusableBudget = TimeBudget.reusable();
  private final Interruption interruption = new Interruption();
  private long timestamp;
  private boolean lastBatchDone;
  // Whether the engine holds uncommitted work of this transaction: set by a
  // successful non-final batch, cleared by a final one or an engine error
  // (which rolls back). Saves a JNI crossing per transaction.
  private boolean open;
  // Whether the next batch is the transaction's first and the call queued behind it has an integer partitioning
  // value (Site#keyAhead): that batch carries it as the engine's prefetch key.
  private boolean prefetchPending;
  private int appStatus;
  private String appStatusMessage = "";
  // The write hash of the transaction as it stands: the engine's after the last batch that succeeded, 0 after a
  // rollback (what replicas compare: CommitPipeline#release).
  private long writeHash;

  SinglePartitionContext(Site site) {
    this.site = site;
  }

  /**
   * Runs a procedure call to completion under {@code header}: commit on
   * success, rollback otherwise, within the call's time limit (its whole run).
   */
  ClientResponse run(CompiledProcedure procedure, Invocation invocation, TxnHeader header) {
    return run(procedure, invocation, header, false);
  }

  /**
   * {@link #run(CompiledProcedure, Invocation, TxnHeader)}; with {@code bytesOnly}
   * (the answer goes to a {@link org.partita.server.txn.ResponseBytesConsumer})
   * a small long result is answered with the response shared by every call
   * that returned it ({@link ResultSets#sharedLongResponse}).
   */
  ClientResponse run(CompiledProcedure procedure, Invocation invocation, TxnHeader header, boolean bytesOnly) {
    final PartitionEngine engine = site.engine();
    begin(header, invocation);
    try {
      final ClientResponse response;
      if (procedure.isSql()) {
        response = ClientResponse.success(runSql(procedure, invocation.parameters()));
      } else {
        final Object result = Invocations.invokeJava(procedure, site.instance(procedure), this, invocation);
        final ClientResponse shared = bytesOnly && result instanceof Long l ? ResultSets.sharedLongResponse(l) : null;
        response = shared != null ? shared : ClientResponse.success(Invocations.results(result, this));
      }
      interruption.rethrowIfStruck(); // the procedure caught it: the transaction still fails with it
      if (open) {
        engine.commit();
      }
      return withAppStatus(response);
    } catch (Throwable t) {
      if (open) {
        engine.rollback();
      }
      writeHash = 0;
      return withAppStatus(Failures.response(t));
    } finally {
      instance = null;
      site.runningCall().end();
    }
  }

  /** Runs one ad-hoc statement that needs only this partition, under {@code header}, within the call's time limit. */
  ClientResponse runStatement(ExecutableStatement statement, Object[] parameters, TxnHeader header,
      Invocation invocation) {
    final PartitionEngine engine = site.engine();
    begin(header, invocation);
    try {
      queue(statement, parameters);
      final ResultTable[] tables = execute(true);
      if (open) {
        engine.commit();
      }
      return ClientResponse.success(List.of(tables));
    } catch (Throwable t) {
      if (open) {
        engine.rollback();
      }
      writeHash = 0;
      return Failures.response(t);
    } finally {
      site.runningCall().end();
    }
  }

  /**
   * The write hash of the last transaction run, as it ended: the engine's
   * after its last batch when it committed, 0 when it wrote nothing or
   * rolled back.
   */
  long writeHash() {
    return writeHash;
  }

  private ClientResponse withAppStatus(ClientResponse response) {
    return appStatus == 0 && appStatusMessage.isEmpty() ? response : response.withAppStatus(appStatus, appStatusMessage);
  }

  @Override
  public void setAppStatus(int code, String message) {
    appStatus = code;
    appStatusMessage = message;
  }

  // A replayed call runs as it ran the first time: to its end, without a
  // time limit, and invisible to @CancelQuery (one stopped the first time is
  // not replayed at all: CommitPipeline#aborted).
  private void begin(TxnHeader header, Invocation invocation) {
    final boolean limited = !site.replaying();
    site.runningCall().begin(limited ? invocation : null);
    budget = limited ? reusableBudget.restart(site.limits().timeoutFor(invocation.timeoutMillis())) : TimeBudget.NONE;
    interruption.reset();
    timestamp = header.timestampMicros();
    appStatus = 0;
    appStatusMessage = "";
    writeHash = 0;
    random.setSeed(header.seed());
    pendingStatements.clear();
    parameters.clear();
    lastBatchDone = false;
    open = false;
    prefetchPending = site.findKeyAhead();
  }

  private List<ResultTable> runSql(CompiledProcedure procedure, Object[] arguments) {
    queue(ExecutableStatement.of(procedure.statements().get(CompiledProcedure.SQL_STATEMENT)), arguments);
    return List.of(execute(true));
  }

  void bindInstance(ProcedureInstance procedureInstance) {
    this.instance = procedureInstance;
    ProcedureBinding.bind(procedureInstance.procedure(), this);
  }

  @Override
  public ParameterBuffer queue(SqlStmt statement) {
    final ExecutableStatement s = instance == null ? null : instance.statements().get(statement);
    if (s == null) {
      throw new IllegalArgumentException("statement is not a SqlStmt field of this procedure: " + statement);
    }
    return queue(s);
  }

  private void queue(ExecutableStatement statement, Object[] values) {
    queue(statement).addAll(values);
  }

  private ParameterBuffer queue(ExecutableStatement statement) {
    if (lastBatchDone) {
      throw new IllegalStateException("statements queued after the last batch (executeLast) of the transaction");
    }
    pendingStatements.add(statement);
    parameters.beginStatement();
    return parameters;
  }

  /** Each queued statement of a single-partition transaction must fall on this partition. */
  private void checkPartitions() {
    for (int i = 0; i < pendingStatements.size(); i++) {
      final ExecutableStatement statement = pendingStatements.get(i);
      final PlannedStatement p = statement.planned();
      if (p.distribution() != PlannedStatement.Distribution.SINGLE_PARTITION) {
        continue;
      }
      final int partition = StatementPartitions.partition(p, parameters, i, statement.name(), site.partitionMap());
      if (partition != site.partition()) {
        throw new ServerException(ErrorCode.ERROR_CODE_WRONG_PARTITION, "statement " + statement.name()
            + " reads or writes partition " + partition + " (partitioning value "
            + StatementPartitions.key(p, parameters.values(i), statement.name()) + "), but this transaction runs on partition "
            + site.partition() + "; use the procedure's partitioning parameter");
      }
    }
  }

  @Override
  public ResultTable[] execute(boolean lastBatch) {
    return execute(lastBatch, null);
  }

  @Override
  public ResultTable[] executeReusingTables(boolean lastBatch) {
    final int count = pendingStatements.size();
    if (count == 0 || count > MAX_REUSED_BATCH) {
      return execute(lastBatch, null);
    }
    final ResultTable[] tables = execute(lastBatch, reusableTables[count]);
    if (tables.length == count) {
      reusableTables[count] = tables;
    }
    return tables;
  }

  /**
   * True iff {@code table} is one of the tables executeReusingTables
   * re-points: a procedure's result must be a copy of it (ResultTable#view).
   */
  boolean reuses(ResultTable table) {
    for (ResultTable[] tables : reusableTables) {
      if (tables != null) {
        for (ResultTable t : tables) {
          if (t == table) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private ResultTable[] execute(boolean lastBatch, ResultTable[] reuse) {
    final PartitionEngine engine = site.engine();
    final int limitMillis;
    try {
      site.runningCall().checkNotCancelled();
      limitMillis = budget.nextBatchMillis();
    } catch (ServerException e) {
      throw interruption.note(e);
    }
    try {
      // A replica's run of its leader's item is not checked: the leader's run of it passed the check (a call failing
      // it writes nothing, and the leader sends a replica only calls that wrote), and a replica whose run did
      // otherwise shows in its write hash.
      if (!site.runningLeadersItem()) {
        checkPartitions();
      }
      final BatchRequestWriter writer = engine.request().begin(lastBatch, timestamp, limitMillis);
      if (prefetchPending) {
        // The first batch: the engine fetches the next call's slots while this call runs.
        writer.prefetchKey(site.keyAhead());
        prefetchPending = false;
      }
      for (int i = 0; i < pendingStatements.size(); i++) {
        final ExecutableStatement s = pendingStatements.get(i);
        s.addPlanCall(writer);
        s.addParameters(writer, parameters, i);
      }
    } finally {
      pendingStatements.clear();
      parameters.clear();
    }
    lastBatchDone = lastBatch;
    open = false;
    final ByteBuffer results;
    try {
      results = engine.execute();
    } catch (EngineException e) {
      writeHash = 0; // the engine rolled the whole transaction back
      throw interruption.note(budget.rethrown(e));
    }
    writeHash = engine.writeHash();
    open = !lastBatch;
    return resultArena.tables(results, reuse);
  }

  @Override
  public long transactionTimestampMicros() {
    return timestamp;
  }

  @Override
  public Random random() {
    return random;
  }
}
