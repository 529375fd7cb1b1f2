package org.partita.server.database.procs;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure: writes a row, then runs a four-way cross join of the
 * replicated table {@code r} whose condition never holds — with a few
 * hundred rows in {@code r}, billions of combinations, far past any test's
 * time limit. Used by QueryLimitsTest: the time limit (or a cancel) must
 * stop it and undo the write.
 */
public final class WriteThenJoinForever extends Procedure {
  static final String WRITE = "INSERT INTO p (id, note) VALUES (?, 'written')";
  static final String FOREVER = "SELECT COUNT(*) FROM r a, r b, r c, r d WHERE a.x + b.x + c.x + d.x < 0";

  public final SqlStmt write = new SqlStmt(WRITE);
  public final SqlStmt forever = new SqlStmt(FOREVER);

  public long run(long id) {
    queue(write, id);
    execute();
    queue(forever);
    final org.partita.client.ResultTable count = execute()[0];
    count.advanceRow();
    return count.getLong(0);
  }
}
