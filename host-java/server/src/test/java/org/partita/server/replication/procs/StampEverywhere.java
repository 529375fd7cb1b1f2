package org.partita.server.replication.procs;

import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/**
 * Test procedure, multi-partition, whose Java code is nondeterministic: sets
 * every account's {@code ops} to the local clock (System.nanoTime). Its Java
 * code runs once, on the coordinator's host; the partitions' replicas run
 * the engine batches their leaders ran, value included, so every copy gets
 * the same value.
 */
public final class StampEverywhere extends Procedure {
  public final SqlStmt stamp = new SqlStmt("UPDATE account SET ops = ?");

  public long run() {
    queue(stamp, System.nanoTime());
    executeLast();
    return 0;
  }
}
