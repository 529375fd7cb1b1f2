package org.partita.server.replication.procs;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure, multi-partition: moves {@code amount} from account
 * {@code fromId} to account {@code toId} (usually on partitions other hosts
 * lead) in two batches, a read then the writes; aborts when the source
 * holds less. Returns the source's balance before the move.
 */
public final class MoveMoney extends Procedure {
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM account WHERE id = ?");
  public final SqlStmt add = new SqlStmt("UPDATE account SET balance = balance + ? WHERE id = ?");

  public long run(long fromId, long toId, long amount) {
    queue(balance, fromId);
    final ResultTable[] source = execute();
    if (!source[0].advanceRow() || source[0].getLong(0) < amount) {
      abort("account " + fromId + " cannot pay " + amount);
    }
    final long before = source[0].getLong(0);
    queue(add, -amount, fromId);
    queue(add, amount, toId);
    executeLast();
    return before;
  }
}
