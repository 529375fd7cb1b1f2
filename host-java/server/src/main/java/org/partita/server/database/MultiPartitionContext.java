package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.engine.EngineException;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.procedure.ParameterBuffer;
import org.partita.server.procedure.ProcedureContext;
import org.partita.server.procedure.SqlStmt;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnHeader;

/**
 * A multi-partition transaction, run by the coordinator thread while every
 * partition has joined it. Each statement goes where its plan says: the
 * partition of its partitioning value, any one partition (replicated reads,
 * spread over the partitions), every partition (replicated writes), or
 * fragments on every partition merged by the coordinator's own engine,
 * which holds a copy of the replicated tables (replicated writes run on it
 * too, in the same transaction). At
 * the end every partition commits, or every partition rolls back.
 * Confined to the coordinator thread.
 */
final class MultiPartitionContext implements ProcedureContext {
  private int appStatus;
  private String appStatusMessage = "";
  private final List<Participant> participants;
  private final PartitionMap map;
  private final PartitionEngine mergeEngine;
  private final long timestamp;
  private final TimeBudget budget;
  private final Interruption interruption = new Interruption();
  private final RunningCall running;
  private final Random random;
  private final int anyPartition;
  private final List<ExecutableStatement> pendingStatements = new ArrayList<>();
  private final ParameterBuffer pendingParameters = new ParameterBuffer();
  private ProcedureInstance instance;

  /**
   * @param participants every partition, in partition order
   * @param mergeEngine the coordinator's engine, which runs merge plans over the partitions' results
   * @param budget the transaction's time limit
   * @param running the coordinator's running call, which @CancelQuery marks
   */
  MultiPartitionContext(List<Participant> participants, PartitionMap map, PartitionEngine mergeEngine,
      TxnHeader header, TimeBudget budget, RunningCall running) {
    this.budget = budget;
    this.running = running;
    this.participants = participants;
    this.map = map;
    this.mergeEngine = mergeEngine;
    this.timestamp = header.timestampMicros();
    this.random = new Random(header.seed());
    this.anyPartition = (int) Long.remainderUnsigned(header.id().sequence(), participants.size());
  }

  /** Throws the time limit or cancel that struck this transaction, even if the procedure caught it. */
  void rethrowIfInterrupted() {
    interruption.rethrowIfStruck();
  }

  void bindInstance(ProcedureInstance procedureInstance) {
    this.instance = procedureInstance;
  }

  @Override
  public ParameterBuffer queue(SqlStmt statement) {
    final ExecutableStatement s = instance == null ? null : instance.statements().get(statement);
    if (s == null) {
      throw new IllegalArgumentException("statement is not a SqlStmt field of this procedure: " + statement);
    }
    pendingStatements.add(s);
    pendingParameters.beginStatement();
    return pendingParameters;
  }

  void queue(ExecutableStatement statement, Object[] parameters) {
    pendingStatements.add(statement);
    pendingParameters.beginStatement();
    pendingParameters.addAll(parameters);
  }

  @Override
  public ResultTable[] execute(boolean lastBatch) {
    final ResultTable[] results = new ResultTable[pendingStatements.size()];
    try {
      for (int i = 0; i < results.length; i++) {
        results[i] = run(pendingStatements.get(i), pendingParameters.values(i));
      }
    } catch (RuntimeException e) {
      throw interruption.note(Failures.unwrap(e) instanceof EngineException engine ? budget.rethrown(engine) : e);
    } finally {
      pendingStatements.clear();
      pendingParameters.clear();
    }
    return results;
  }

  private ResultTable run(ExecutableStatement s, Object[] parameters) {
    final PlannedStatement p = s.planned();
    switch (p.distribution()) {
      case SINGLE_PARTITION:
        return one(participants.get(StatementPartitions.partition(p, parameters, s.name(), map)), s, parameters);
      case ANY_PARTITION:
        return one(participants.get(anyPartition), s, parameters);
      case ROUTED_INSERT:
        return RoutedInsert.run(participants, map, s, parameters, timestamp, nextLimit());
      case REPLICATED_WRITE: {
        final FragmentRequest request = FragmentRequest.plan(timestamp, nextLimit(), s, parameters);
        final List<CompletableFuture<ByteBuffer>> all = new ArrayList<>();
        for (Participant participant : participants) {
          all.add(participant.execute(request));
        }
        final ByteBuffer first = joinAll(all).get(0);
        onMergeEngine(request);
        return ResultSets.tables(first)[0];
      }
      default:
        return distributed(s, parameters);
    }
  }

  private ResultTable one(Participant participant, ExecutableStatement s, Object[] parameters) {
    return ResultSets.tables(participant.execute(FragmentRequest.plan(timestamp, nextLimit(), s, parameters)).join())[0];
  }

  /** Fragments on every partition, then the statement's plan over their results on the coordinator's engine. */
  private ResultTable distributed(ExecutableStatement s, Object[] parameters) {
    final int fragments = s.planned().fragments().size();
    final List<FragmentRequest.PlanCall> calls = new ArrayList<>(fragments);
    for (int f = 0; f < fragments; f++) {
      calls.add(new FragmentRequest.PlanCall(s, f, parameters));
    }
    final FragmentRequest request = new FragmentRequest(timestamp, nextLimit(), calls, List.of());
    final List<CompletableFuture<ByteBuffer>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.execute(request));
    }
    final List<FragmentRequest.Dependency> dependencies = new ArrayList<>();
    for (ByteBuffer partial : joinAll(all)) {
      final List<ByteBuffer> tables = ResultSets.slices(partial);
      for (int f = 0; f < fragments; f++) {
        dependencies.add(new FragmentRequest.Dependency(s.planned().fragments().get(f).dependencyId(), tables.get(f)));
      }
    }
    final ByteBuffer merged = onMergeEngine(new FragmentRequest(timestamp, nextLimit(),
        List.of(new FragmentRequest.PlanCall(s, -1, parameters)), dependencies));
    return ResultSets.tables(merged)[0];
  }

  /**
   * The time limit of the next batch sent anywhere: what is left of the
   * transaction's. @throws ServerException TRANSACTION_TIMEOUT when nothing is
   * left, CANCELLED when @CancelQuery stopped the transaction
   */
  private int nextLimit() {
    running.checkNotCancelled();
    return budget.nextBatchMillis();
  }

  /**
   * Runs {@code request} on the coordinator's engine, inside this
   * transaction: merges read the replicated tables it holds, and replicated
   * writes keep them equal to every partition's copy.
   */
  private ByteBuffer onMergeEngine(FragmentRequest request) {
    request.writeTo(mergeEngine.request(), false);
    return ResultSets.copy(mergeEngine.execute());
  }

  /** Commits (or rolls back) every partition, and the coordinator's engine. */
  /** The prepare step on every participant; waits for all (the first failure is thrown once all answered). */
  /**
   * A schema change across hosts: every partition's leader copy takes
   * {@code next} (its replicas take it with the prepare step); waits for all,
   * and fails if any did not. A roll back restores the catalog before it.
   */
  void applyCatalog(CatalogSnapshot next, byte[] engineCatalog) {
    final List<CompletableFuture<Void>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.applyCatalog(next, engineCatalog));
    }
    joinAll(all);
  }

  void prepare() {
    final List<CompletableFuture<Void>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.prepare());
    }
    joinAll(all);
  }

  void finish(boolean commit) {
    final List<CompletableFuture<Void>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.finish(commit));
    }
    try {
      joinAll(all);
    } finally {
      if (mergeEngine.inTransaction()) {
        if (commit) {
          mergeEngine.commit();
        } else {
          mergeEngine.rollback();
        }
      }
    }
  }

  static <T> List<T> joinAll(List<CompletableFuture<T>> futures) {
    final List<T> out = new ArrayList<>();
    RuntimeException first = null;
    for (CompletableFuture<T> f : futures) {
      try {
        out.add(f.join());
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return out;
  }

  @Override
  public void setAppStatus(int code, String message) {
    appStatus = code;
    appStatusMessage = message;
  }

  /** {@code response} with the application status the procedure set, if any. */
  ClientResponse withAppStatus(ClientResponse response) {
    return appStatus == 0 && appStatusMessage.isEmpty() ? response : response.withAppStatus(appStatus, appStatusMessage);
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
