package org.partita.server.database.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Test procedure (multi-partition): total of all balances, then a bonus for everyone. */
public final class TotalBalance extends Procedure {
  public final SqlStmt total = new SqlStmt("SELECT SUM(balance) FROM accounts");
  public final SqlStmt bonus = new SqlStmt("UPDATE accounts SET balance = balance + ?");

  public ResultTable[] run(long bonusAmount, long abortAbove) {
    queue(bonus, bonusAmount);
    queue(total);
    final ResultTable[] r = execute();
    r[1].advanceRow();
    if (r[1].getLong(0) > abortAbove) {
      abort("total too high");
    }
    return r;
  }
}
