package org.partita.server.procedure;

import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;

/**
 * Thrown by {@link Procedure#abort}: rolls back everything the transaction
 * wrote and answers the caller with USER_ABORT and the message.
 */
public final class ProcedureAbortException extends ServerException {
  private static final long serialVersionUID = 1L;

  public ProcedureAbortException(String message) {
    super(ErrorCode.ERROR_CODE_USER_ABORT, message);
  }
}
