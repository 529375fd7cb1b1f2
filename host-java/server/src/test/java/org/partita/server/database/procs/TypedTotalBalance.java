package org.partita.server.database.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Test procedure (multi-partition): {@link TotalBalance} with the typed queue; a fractional bonus is refused. */
public final class TypedTotalBalance extends Procedure {
  public final SqlStmt total = new SqlStmt("SELECT SUM(balance) FROM accounts");
  public final SqlStmt bonus = new SqlStmt("UPDATE accounts SET balance = balance + ?");

  public ResultTable[] run(double bonusAmount) {
    queue(bonus).add(bonusAmount);
    queue(total);
    return execute();
  }
}
