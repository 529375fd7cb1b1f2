package org.partita.server.host;

/** The server could not start; the message says why (a schema error names file, line and column). */
public final class StartupException extends Exception {
  private static final long serialVersionUID = 1L;

  public StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
