package org.partita.server.procedure;

/**
 * Thrown by {@link Procedure#abort}: rolls back everything the transaction
 * wrote and answers the caller with USER_ABORT and the message.
 */
public final class ProcedureAbortException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ProcedureAbortException(String message) {
    super(message, null, false, false);
  }
}
