package org.partita.server.database.procs;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure: writes a row, runs a join that outlasts any test's time
 * limit, catches the time limit's exception and returns as if nothing
 * happened. Used by QueryLimitsTest: the transaction must still fail
 * with the time limit and keep nothing, since its outcome depended on time.
 */
public final class WriteThenSwallowTimeout extends Procedure {
  public final SqlStmt write = new SqlStmt(WriteThenJoinForever.WRITE);
  public final SqlStmt forever = new SqlStmt(WriteThenJoinForever.FOREVER);

  public long run(long id) {
    queue(write, id);
    execute();
    try {
      queue(forever);
      execute();
    } catch (RuntimeException e) {
      return -1; // swallowed: the server must not commit the write anyway
    }
    return 0;
  }
}
