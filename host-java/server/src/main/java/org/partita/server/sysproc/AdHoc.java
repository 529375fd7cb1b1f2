package org.partita.server.sysproc;

import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @AdHoc(sql [, parameters...])}: runs one SQL statement as its own
 * transaction through {@link Database#offerAdHoc}: a query or DML with its
 * {@code ?} parameters, or DDL that changes the schema on every partition.
 */
final class AdHoc implements SystemProcedure {
  private final Database database;

  AdHoc(Database database) {
    this.database = database;
  }

  @Override
  public String name() {
    return "@AdHoc";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, Integer.MAX_VALUE, "(sql [, parameters...])");
    final String sql = parameters.text(0, "sql");
    final Object[] values = parameters.from(1);
    return parameters.invocation() == null ? database.offerAdHoc(sql, values, handler)
        : database.offerAdHoc(parameters.invocation(), sql, values, handler);
  }
}
