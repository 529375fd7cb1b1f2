package org.partita.fault.procedures;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The bank workload's transfer: moves {@code amount} from account
 * {@code fromId} to account {@code toId} (usually in different partitions)
 * and records transfer {@code transferId}, all or nothing. Multi-partition.
 * Aborts (nothing changes) when the source account is missing or holds
 * less than the amount, so no balance goes negative. Returns 1.
 */
public final class BankTransfer extends Procedure {
  /** The source account's balance. */
  public final SqlStmt balance = new SqlStmt("SELECT balance FROM accounts WHERE id = ?");
  /** Takes money from one account or adds it to another. */
  public final SqlStmt add = new SqlStmt("UPDATE accounts SET balance = balance + ? WHERE id = ?");
  /** The transfer, for the audit. */
  public final SqlStmt record =
      new SqlStmt("INSERT INTO transfers (id, from_id, to_id, amount) VALUES (?, ?, ?, ?)");

  public long run(long transferId, long fromId, long toId, long amount) {
    queue(balance, fromId);
    final ResultTable[] source = execute();
    if (!source[0].advanceRow()) {
      abort("no account " + fromId);
    }
    if (source[0].getLong(0) < amount) {
      abort("account " + fromId + " holds " + source[0].getLong(0) + ", less than " + amount);
    }
    queue(add, -amount, fromId);
    queue(add, amount, toId);
    queue(record, transferId, fromId, toId, amount);
    executeLast();
    return 1;
  }
}
