package org.partita.server.durability;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the command log does when a write or sync fails: it never retries
 * (after a failed fsync the kernel may have dropped the dirty pages, so a
 * retry that succeeds proves nothing). The host's choice, {@link #HALT},
 * logs the failure and stops the process at once, before any answer that
 * waits for the lost records can leave; tests substitute their own.
 */
@FunctionalInterface
public interface DiskFailure {
  /** Exit code of a process stopped by a failed command log write or sync. */
  int EXIT_CODE = 3;

  /** Stops whatever depends on the log; {@code message} names the file and the operation. */
  void stop(String message, Throwable cause);

  /** Logs {@code message} and halts the JVM with {@link #EXIT_CODE} (no shutdown hooks: nothing more is answered). */
  DiskFailure HALT = (message, cause) -> {
    final Logger log = Logger.getLogger(DiskFailure.class.getName());
    log.log(Level.SEVERE, message + "; stopping the server (exit code " + EXIT_CODE + ")", cause);
    for (Handler handler : Logger.getLogger("").getHandlers()) {
      handler.flush();
    }
    System.err.println("partita: " + message + ": " + cause + "; stopping the server");
    System.err.flush();
    Runtime.getRuntime().halt(EXIT_CODE);
  };
}
