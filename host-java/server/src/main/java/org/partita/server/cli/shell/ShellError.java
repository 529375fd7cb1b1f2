package org.partita.server.cli.shell;

import org.partita.client.BackpressureException;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.FrameTooLargeException;
import org.partita.client.NoConnectionsException;
import org.partita.client.ProcedureCallException;

/**
 * A failure the shell reports as one line, {@code ERROR: <name>: <message>}:
 * the server's error name and message for an answer other than SUCCESS, a
 * name of the shell's own for client-side and input problems. Immutable.
 *
 * @param name an UPPER_SNAKE error name ({@code SQL_ERROR}, {@code CONNECTION_LOST}, {@code BAD_COMMAND}, ...)
 * @param message what went wrong
 */
record ShellError(String name, String message) {
  /** A command the shell cannot run: wrong or missing arguments. */
  static final String BAD_COMMAND = "BAD_COMMAND";
  /** A file the {@code file} command cannot read. */
  static final String FILE_ERROR = "FILE_ERROR";

  /** The error a failed call reports. */
  static ShellError of(RuntimeException failure) {
    if (failure instanceof ProcedureCallException p) {
      final ClientResponse r = p.response();
      return new ShellError(r.errorName().isEmpty() ? r.status().name() : r.errorName(),
          r.message().isEmpty() ? p.getMessage() : r.message());
    }
    if (failure instanceof ConnectionLostException) {
      return new ShellError("CONNECTION_LOST", failure.getMessage()
          + " (the statement may have run; the client reconnects in the background)");
    }
    if (failure instanceof NoConnectionsException) {
      return new ShellError("NO_CONNECTION", failure.getMessage());
    }
    if (failure instanceof CallTimeoutException) {
      return new ShellError("TIMEOUT", failure.getMessage() + " (it may still run on the server)");
    }
    if (failure instanceof BackpressureException) {
      return new ShellError("BACKPRESSURE", failure.getMessage());
    }
    if (failure instanceof FrameTooLargeException) {
      return new ShellError("TOO_LARGE", failure.getMessage());
    }
    if (failure instanceof IllegalArgumentException) {
      return new ShellError("BAD_ARGUMENT", failure.getMessage());
    }
    return new ShellError("CLIENT_ERROR", failure.getMessage() == null ? failure.getClass().getSimpleName()
        : failure.getMessage());
  }

  /** The line printed on standard error. */
  String line() {
    return "ERROR: " + name + ": " + message;
  }
}
