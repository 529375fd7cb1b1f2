package org.partita.server.database.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure: reads account 1's then account 2's balance of an owner in
 * two batches of one statement with reused tables, aborts unless the second
 * batch re-pointed the first one's array, and returns the second table.
 */
public final class ReusingReads extends Procedure {
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM accounts WHERE owner = ? AND id = ?");

  public ResultTable run(long owner) {
    queue(balance).add(owner).add(1);
    final ResultTable[] first = executeReusingTables();
    queue(balance).add(owner).add(2);
    final ResultTable[] second = executeLastReusingTables();
    if (first != second) {
      abort("the second batch made new tables");
    }
    return second[0];
  }
}
