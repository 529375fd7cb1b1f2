package org.partita.server.host;

import org.partita.client.ClientResponse;
import org.partita.server.error.ErrorTable;
import org.partita.proto.ErrorCode;
import org.partita.server.database.Database;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.dispatch.RecordedResponseHandler;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.security.Principal;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.sysproc.SystemProcedures;
import org.partita.server.txn.Invocation;

/**
 * The server's {@link Dispatcher}: names starting with '@' go to the system
 * procedures, everything else to the database's router (a single-partition
 * call straight to its site's queue, a multi-partition one to the
 * coordinator). Every answered call is recorded in the procedure
 * statistics. Once shutting down, new calls are rejected. Thread-safe.
 */
final class ServerDispatcher implements Dispatcher {
  private final Database database;
  private final SystemProcedures systemProcedures;
  private final ProcedureStatistics statistics;
  private volatile boolean shuttingDown;
  /** Checks callers' permissions; null when security is off. */
  private final CallAuthorization authorization;
  private final RecordedResponseHandler.Recorder recorder = this::record;

  ServerDispatcher(Database database, SystemProcedures systemProcedures, ProcedureStatistics statistics) {
    this(database, systemProcedures, statistics, false);
  }

  /** With {@code secured}, calls of authenticated principals are checked against their roles. */
  ServerDispatcher(Database database, SystemProcedures systemProcedures, ProcedureStatistics statistics,
      boolean secured) {
    this.database = database;
    this.systemProcedures = systemProcedures;
    this.statistics = statistics;
    this.authorization = secured ? new CallAuthorization(database) : null;
  }

  @Override
  public boolean dispatch(Invocation invocation, Principal caller, ResponseHandler handler) {
    if (authorization != null && !shuttingDown) {
      final ClientResponse denied = authorization.check(invocation, caller);
      if (denied != null) {
        statistics.record(invocation.procedure(), denied.status(), 0);
        handler.onResponse(denied);
        return true;
      }
    }
    return dispatch(invocation, handler);
  }

  void beginShutdown() {
    shuttingDown = true;
  }

  @Override
  public boolean dispatch(Invocation invocation, ResponseHandler handler) {
    if (shuttingDown) {
      handler.onResponse(ErrorTable.response(ErrorCode.ERROR_CODE_SHUTTING_DOWN,
          "the server is shutting down and accepts no new calls"));
      return true;
    }
    final String procedure = invocation.procedure();
    final long start = System.nanoTime();
    final ResponseHandler recorded;
    if (handler instanceof RecordedResponseHandler r) {
      r.recordWith(recorder, procedure, start); // the network's calls: no wrapper per call
      recorded = r;
    } else {
      recorded = response -> {
        record(procedure, response, System.nanoTime() - start);
        handler.onResponse(response);
      };
    }
    if (!procedure.isEmpty() && procedure.charAt(0) == '@') {
      return systemProcedures.call(invocation, recorded);
    }
    return database.offerCall(invocation, recorded);
  }

  private void record(String procedure, ClientResponse response, long nanos) {
    statistics.record(procedure, response.status(), nanos);
  }
}
