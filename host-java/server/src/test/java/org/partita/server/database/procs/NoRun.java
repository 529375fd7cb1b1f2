package org.partita.server.database.procs;

import org.partita.server.procedure.Procedure;

/** Test procedure without a run method (must not compile). */
public final class NoRun extends Procedure {
  public long execute(long x) {
    return x;
  }
}
