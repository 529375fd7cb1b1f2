package org.partita.server.database.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Test procedure: moves an amount between two accounts of one owner; aborts on overdraft. */
public final class Transfer extends Procedure {
  public final SqlStmt debit = new SqlStmt("UPDATE accounts SET balance = balance - ? WHERE owner = ? AND id = ?");
  public final SqlStmt credit = new SqlStmt("UPDATE accounts SET balance = balance + ? WHERE owner = ? AND id = ?");
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM accounts WHERE owner = ? AND id = ?");

  public long run(long owner, int from, int to, long amount) {
    queue(debit, amount, owner, from);
    queue(credit, amount, owner, to);
    queue(balance, owner, from);
    final ResultTable[] r = execute();
    if (r[0].advanceRow() && r[0].getLong(0) == 0) {
      abort("no account " + from);
    }
    r[2].advanceRow();
    if (r[2].getLong(0) < 0) {
      abort("overdraft on account " + from);
    }
    return r[2].getLong(0);
  }
}
