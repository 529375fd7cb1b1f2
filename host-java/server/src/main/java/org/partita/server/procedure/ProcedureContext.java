package org.partita.server.procedure;

import java.util.Random;
import org.partita.client.ResultTable;

/** What the runtime gives a running procedure (implemented by the sites). */
public interface ProcedureContext {
  /** Queues {@code statement}; its parameters are then added to the buffer returned. */
  ParameterBuffer queue(SqlStmt statement);

  ResultTable[] execute(boolean lastBatch);

  /**
   * {@link #execute} whose tables may be re-pointed by a later batch instead
   * of made anew (Procedure#executeReusingTables); by default it is execute.
   */
  default ResultTable[] executeReusingTables(boolean lastBatch) {
    return execute(lastBatch);
  }

  long transactionTimestampMicros();

  Random random();

  /** Records the application status the caller will get with the response (success or failure). */
  void setAppStatus(int code, String message);
}
