package org.partita.server.database.procs;

import org.partita.server.procedure.Procedure;

/** Test procedure with an unsupported parameter type (must not compile). */
public final class BadParameter extends Procedure {
  public long run(java.util.List<String> names) {
    return names.size();
  }
}
