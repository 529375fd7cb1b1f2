package org.partita.server.database.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure: {@link Transfer} with parameters added through the typed
 * queue; the balance is read for {@code readOwner} (another partition's owner
 * is refused) and {@code dropReadId} leaves the read's second parameter out.
 */
public final class TypedTransfer extends Procedure {
  public final SqlStmt debit = new SqlStmt("UPDATE accounts SET balance = balance - ? WHERE owner = ? AND id = ?");
  public final SqlStmt credit = new SqlStmt("UPDATE accounts SET balance = balance + ? WHERE owner = ? AND id = ?");
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM accounts WHERE owner = ? AND id = ?");

  public long run(long owner, int from, int to, long amount, long readOwner, int dropReadId) {
    queue(debit).add(amount).add(owner).add(from);
    queue(credit).add(amount).add(owner).add(to);
    if (dropReadId != 0) {
      queue(balance).add(readOwner);
    } else {
      queue(balance).add(readOwner).add(from);
    }
    final ResultTable[] r = execute();
    r[2].advanceRow();
    if (r[2].getLong(0) < 0) {
      abort("overdraft on account " + from);
    }
    return r[2].getLong(0);
  }
}
