package org.partita.server.procedure;

import java.util.Random;
import org.partita.client.ResultTable;

/** What the runtime gives a running procedure (implemented by the sites). */
public interface ProcedureContext {
  void queue(SqlStmt statement, Object[] parameters);

  ResultTable[] execute(boolean lastBatch);

  long transactionTimestampMicros();

  Random random();

  /** Records the application status the caller will get with the response (success or failure). */
  void setAppStatus(int code, String message);
}
