package org.partita.server.database;

import java.nio.ByteBuffer;
import java.util.List;
import org.partita.server.engine.BatchRequestWriter;

/**
 * What the multi-partition coordinator asks one participant to run: one
 * engine batch of statement calls (whole plans or plan fragments, each with
 * its parameters), with the dependency tables a coordinator plan receives.
 * The answer is the batch's result set (docs/engine-formats.md). A message:
 * a remote participant sends exactly these fields. Immutable.
 *
 * @param timestampMicros the multi-partition transaction's timestamp
 * @param timeLimitMillis the batch's time limit (what is left of the transaction's; 0 = none)
 */
record FragmentRequest(long timestampMicros, int timeLimitMillis, List<PlanCall> calls, List<Dependency> dependencies) {
  /** One call of a statement's plan ({@code fragment} -1) or of its fragment number {@code fragment}. */
  record PlanCall(ExecutableStatement statement, int fragment, Object[] parameters) {}

  /** A table the coordinator plan's RECEIVE node {@code id} reads. */
  record Dependency(int id, ByteBuffer table) {}

  FragmentRequest {
    calls = List.copyOf(calls);
    dependencies = List.copyOf(dependencies);
  }

  /** A request running {@code statement}'s whole plan once. */
  static FragmentRequest plan(long timestampMicros, int timeLimitMillis, ExecutableStatement statement,
      Object[] parameters) {
    return new FragmentRequest(timestampMicros, timeLimitMillis, List.of(new PlanCall(statement, -1, parameters)), List.of());
  }

  /**
   * Writes the request as one engine batch; {@code finalBatch} commits at
   * once (for read-only merges on the coordinator's engine), otherwise the
   * participant's transaction stays open until the coordinator finishes it.
   */
  void writeTo(BatchRequestWriter writer, boolean finalBatch) {
    writer.begin(finalBatch, timestampMicros, timeLimitMillis);
    for (PlanCall call : calls) {
      if (call.fragment() < 0) {
        call.statement().addPlanCall(writer);
      } else {
        call.statement().addFragmentCall(writer, call.fragment());
      }
      call.statement().addParameters(writer, call.parameters());
    }
    for (Dependency d : dependencies) {
      writer.addDependency(d.id(), d.table());
    }
  }
}
