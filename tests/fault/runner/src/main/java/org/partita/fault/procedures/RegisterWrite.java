package org.partita.fault.procedures;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * The register workload's write: sets register {@code id} to {@code val}
 * and records the write in {@code register_writes} (the audit of
 * acknowledged writes). Single-partition on the register. Returns 1.
 */
public final class RegisterWrite extends Procedure {
  /** The register itself. */
  public final SqlStmt upsert = new SqlStmt("UPSERT INTO registers (id, val) VALUES (?, ?)");
  /** The write, for the audit. */
  public final SqlStmt record = new SqlStmt("INSERT INTO register_writes (id, val) VALUES (?, ?)");

  public long run(long id, long val) {
    queue(upsert, id, val);
    queue(record, id, val);
    executeLast();
    return 1;
  }
}
