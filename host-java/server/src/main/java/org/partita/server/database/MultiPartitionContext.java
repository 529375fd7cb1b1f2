package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.procedure.ProcedureContext;
import org.partita.server.procedure.SqlStmt;

/**
 * A multi-partition transaction, run by the coordinator thread while it holds
 * every partition. Each statement goes where its plan says (one partition,
 * any, or all with a merge on partition 0); at the end every partition
 * commits, or every partition rolls back. Confined to the coordinator thread.
 */
final class MultiPartitionContext implements ProcedureContext {
  private int appStatus;
  private String appStatusMessage = "";
  private final List<Participant> participants;
  private final long timestamp;
  private final Random random;
  private final List<ExecutableStatement> pendingStatements = new ArrayList<>();
  private final List<Object[]> pendingParameters = new ArrayList<>();
  private ProcedureInstance instance;

  MultiPartitionContext(List<Participant> participants, long timestamp) {
    this.participants = participants;
    this.timestamp = timestamp;
    this.random = new Random(timestamp);
  }

  void bindInstance(ProcedureInstance procedureInstance) {
    this.instance = procedureInstance;
  }

  @Override
  public void queue(SqlStmt statement, Object[] parameters) {
    final ExecutableStatement s = instance == null ? null : instance.statements().get(statement);
    if (s == null) {
      throw new IllegalArgumentException("statement is not a SqlStmt field of this procedure: " + statement);
    }
    queue(s, parameters);
  }

  void queue(ExecutableStatement statement, Object[] parameters) {
    pendingStatements.add(statement);
    pendingParameters.add(parameters);
  }

  @Override
  public ResultTable[] execute(boolean lastBatch) {
    final ResultTable[] results = new ResultTable[pendingStatements.size()];
    try {
      for (int i = 0; i < results.length; i++) {
        results[i] = run(pendingStatements.get(i), pendingParameters.get(i));
      }
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
        return one(participants.get(partitionOf(s, parameters)), s, parameters);
      case ANY_PARTITION:
        return one(participants.get(0), s, parameters);
      case ROUTED_INSERT:
        return RoutedInsert.run(participants, s, parameters, timestamp);
      case REPLICATED_WRITE: {
        final List<CompletableFuture<ByteBuffer>> all = new ArrayList<>();
        for (Participant participant : participants) {
          all.add(participant.call(engine -> runPlan(engine, s, parameters)));
        }
        final List<ByteBuffer> results = joinAll(all);
        return ResultSets.tables(results.get(0))[0];
      }
      default:
        return distributed(s, parameters);
    }
  }

  private int partitionOf(ExecutableStatement s, Object[] parameters) {
    return StatementPartitions.partition(s.planned(), parameters, s.name(), participants.size());
  }

  private ResultTable one(Participant participant, ExecutableStatement s, Object[] parameters) {
    return ResultSets.tables(join(participant.call(engine -> runPlan(engine, s, parameters))))[0];
  }

  private ByteBuffer runPlan(PartitionEngine engine, ExecutableStatement s, Object[] parameters) {
    final BatchRequestWriter writer = engine.request().begin(false, timestamp);
    s.addPlanCall(writer);
    s.addParameters(writer, parameters);
    return ResultSets.copy(engine.execute());
  }

  /** Fragments on every partition, then the coordinator plan over their results on partition 0. */
  private ResultTable distributed(ExecutableStatement s, Object[] parameters) {
    final int fragments = s.planned().fragments().size();
    final List<CompletableFuture<ByteBuffer>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.call(engine -> {
        final BatchRequestWriter writer = engine.request().begin(false, timestamp);
        for (int f = 0; f < fragments; f++) {
          s.addFragmentCall(writer, f);
          s.addParameters(writer, parameters);
        }
        return ResultSets.copy(engine.execute());
      }));
    }
    final List<ByteBuffer> partials = joinAll(all);
    final ByteBuffer merged = join(participants.get(0).call(engine -> {
      final BatchRequestWriter writer = engine.request().begin(false, timestamp);
      s.addPlanCall(writer);
      s.addParameters(writer, parameters);
      for (ByteBuffer partial : partials) {
        final List<ByteBuffer> tables = ResultSets.slices(partial);
        for (int f = 0; f < fragments; f++) {
          writer.addDependency(s.planned().fragments().get(f).dependencyId(), tables.get(f));
        }
      }
      return ResultSets.copy(engine.execute());
    }));
    return ResultSets.tables(merged)[0];
  }

  /** Commits (or rolls back) every partition. */
  void finish(boolean commit) {
    final List<CompletableFuture<Void>> all = new ArrayList<>();
    for (Participant participant : participants) {
      all.add(participant.call(engine -> {
        if (engine.inTransaction()) {
          if (commit) {
            engine.commit();
          } else {
            engine.rollback();
          }
        }
        return null;
      }));
    }
    joinAll(all);
  }

  private static <T> T join(CompletableFuture<T> f) {
    return f.join();
  }

  private static <T> List<T> joinAll(List<CompletableFuture<T>> futures) {
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
