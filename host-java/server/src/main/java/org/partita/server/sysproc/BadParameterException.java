package org.partita.server.sysproc;

/** A system procedure's parameter is missing, extra, or of the wrong type or value; answered as REJECTED BAD_PARAMETER. */
final class BadParameterException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  BadParameterException(String message) {
    super(message, null, false, false);
  }
}
