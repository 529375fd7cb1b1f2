package org.partita.integration.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure for the bank schema (bank.sql), multi-partition: moves
 * {@code amount} from account {@code fromId} to account {@code toId} in two
 * batches, a read of the source then both writes; aborts, changing nothing,
 * when the source holds less. On a cluster its accounts are usually on
 * partitions different hosts lead.
 */
public final class Transfer extends Procedure {
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM accounts WHERE id = ?");
  public final SqlStmt add = new SqlStmt("UPDATE accounts SET balance = balance + ? WHERE id = ?");

  public long run(long fromId, long toId, long amount) {
    queue(balance, fromId);
    final ResultTable[] source = execute();
    if (!source[0].advanceRow() || source[0].getLong(0) < amount) {
      abort("account " + fromId + " cannot pay " + amount);
    }
    queue(add, -amount, fromId);
    queue(add, amount, toId);
    executeLast();
    return 1;
  }
}
