package org.partita.server.database.procs;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Test procedure: reads an owner other than its partitioning parameter. */
public final class WrongPartition extends Procedure {
  public final SqlStmt read = new SqlStmt("SELECT balance FROM accounts WHERE owner = ?");

  public void run(long owner, long otherOwner) {
    queue(read, otherOwner);
    execute();
  }
}
