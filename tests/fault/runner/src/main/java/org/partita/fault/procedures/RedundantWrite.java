package org.partita.fault.procedures;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The redundant-register workload's write: sets every slot (one per
 * partition or more) to {@code val} in one multi-partition transaction and
 * records the write in {@code redundant_writes}. Returns 1.
 */
public final class RedundantWrite extends Procedure {
  /** Every slot, in every partition. */
  public final SqlStmt set = new SqlStmt("UPDATE slots SET val = ?");
  /** The write, for the audit. */
  public final SqlStmt record = new SqlStmt("INSERT INTO redundant_writes (val) VALUES (?)");

  public long run(long val) {
    queue(set, val);
    queue(record, val);
    executeLast();
    return 1;
  }
}
