package org.partita.server.procedure;

import java.util.Random;
import org.partita.client.ResultTable;

/** What the runtime gives a running procedure (implemented by the sites). */
public interface ProcedureContext {
  void queue(SqlStmt statement, Object[] parameters);

  ResultTable[] execute(boolean lastBatch);

  long transactionTimestampMicros();

  Random random();
}
