package org.partita.server.replication.procs;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure, deliberately nondeterministic: writes the value of the
 * local clock (System.nanoTime), which differs on every copy that runs it.
 * Replication must catch it by the write hash and stop the replica.
 */
public final class WriteClock extends Procedure {
  public final SqlStmt write = new SqlStmt("UPSERT INTO kv (k, v) VALUES (?, ?)");

  public long run(long key) {
    queue(write, key, System.nanoTime());
    execute();
    return 0;
  }
}
