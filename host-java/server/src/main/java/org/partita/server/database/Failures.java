package org.partita.server.database;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.server.engine.EngineException;
import org.partita.server.procedure.ProcedureAbortException;

/** Turns what went wrong in a transaction into the caller's response. */
final class Failures {
  private static final Logger LOG = Logger.getLogger(Failures.class.getName());

  private Failures() {}

  /** Thrown inside a transaction for a SQL error detected by the host (not the engine). */
  static final class SqlError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String code;

    SqlError(String code, String message) {
      super(message, null, false, false);
      this.code = code;
    }
  }

  static ClientResponse response(Throwable t) {
    final Throwable cause = unwrap(t);
    if (cause instanceof ProcedureAbortException abort) {
      return ClientResponse.failure(Status.USER_ABORT, "USER_ABORT", abort.getMessage());
    }
    if (cause instanceof EngineException e) {
      return ClientResponse.failure(Status.GRACEFUL_FAILURE, codeName(e), e.getMessage());
    }
    if (cause instanceof ParameterConverter.BadParameterException e) {
      return ClientResponse.failure(Status.GRACEFUL_FAILURE, "BAD_PARAMETER", e.getMessage());
    }
    if (cause instanceof SqlError e) {
      return ClientResponse.failure(Status.GRACEFUL_FAILURE, e.code, e.getMessage());
    }
    LOG.log(Level.WARNING, "unexpected failure in a transaction", cause);
    return ClientResponse.failure(Status.UNEXPECTED_FAILURE, "INTERNAL",
        cause.getClass().getSimpleName() + ": " + cause.getMessage());
  }

  static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while ((c instanceof CompletionException || c instanceof ExecutionException
        || c instanceof InvocationTargetException) && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  private static String codeName(EngineException e) {
    final String name = e.errorCode().name();
    return name.startsWith("ERROR_CODE_") ? name.substring("ERROR_CODE_".length()) : name;
  }
}
