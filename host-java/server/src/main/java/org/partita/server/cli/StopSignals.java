package org.partita.server.cli;

import java.util.logging.Logger;
import sun.misc.Signal;

/**
 * Turns SIGTERM and SIGINT into a graceful shutdown that ends with exit
 * code 0: the signal starts {@code shutdown} on its own thread, the main
 * thread sees the server stop and returns normally. (A JVM shutdown hook
 * alone would also stop the server, but the process would then exit with
 * 128 + the signal number.) Where the JVM does not allow handling a signal,
 * the shutdown hook remains the fallback.
 */
final class StopSignals {
  private static final Logger LOG = Logger.getLogger(StopSignals.class.getName());

  private StopSignals() {}

  static void install(Runnable shutdown) {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        Signal.handle(new Signal(name), signal -> {
          LOG.info("SIG" + name + " received");
          new Thread(shutdown, "partita-sig" + name.toLowerCase(java.util.Locale.ROOT)).start();
        });
      } catch (IllegalArgumentException e) {
        LOG.warning("cannot handle SIG" + name + " (" + e.getMessage() + "); it will stop the server through the "
            + "shutdown hook, exiting with 128 + its number");
      }
    }
  }
}
