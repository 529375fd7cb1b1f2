package org.partita.fault.procedures;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The register workload's compare-and-set: sets register {@code id} to
 * {@code val} iff it holds {@code expected}, and then records the write in
 * {@code register_writes}. Single-partition on the register. Returns 1 when
 * it swapped, 0 when the register held something else (or nothing).
 */
public final class RegisterCas extends Procedure {
  /** The conditional update; answers the number of rows changed. */
  public final SqlStmt swap = new SqlStmt("UPDATE registers SET val = ? WHERE id = ? AND val = ?");
  /** The write, for the audit. */
  public final SqlStmt record = new SqlStmt("INSERT INTO register_writes (id, val) VALUES (?, ?)");

  public long run(long id, long expected, long val) {
    queue(swap, val, id, expected);
    final ResultTable[] changed = execute();
    if (!changed[0].advanceRow() || changed[0].getLong(0) == 0) {
      return 0;
    }
    queue(record, id, val);
    executeLast();
    return 1;
  }
}
