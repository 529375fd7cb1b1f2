package org.partita.server.database;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;

/**
 * Turns what went wrong in a transaction into the caller's response: a
 * {@link ServerException} (engine errors, bad parameters, aborts, SQL errors
 * the host finds) by its code through {@link ErrorTable}; anything else is a
 * server bug, logged with its stack and answered INTERNAL.
 */
final class Failures {
  private static final Logger LOG = Logger.getLogger(Failures.class.getName());

  private Failures() {}

  static ClientResponse response(Throwable t) {
    final Throwable cause = unwrap(t);
    if (cause instanceof ServerException e) {
      return ErrorTable.response(e);
    }
    LOG.log(Level.WARNING, "unexpected failure in a transaction", cause);
    return ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL,
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
}
