package org.partita.server.cli;

import java.util.logging.LogManager;

/**
 * The JDK's LogManager closes every handler in its own shutdown hook, so a
 * server shutting down on SIGTERM would lose the log lines that say what it
 * did. This manager ignores that reset; handlers flush as they write, and
 * the process exit ends them. Installed by {@link PartitaCli#main} through
 * the {@code java.util.logging.manager} property.
 */
public final class ShutdownSafeLogManager extends LogManager {
  @Override
  public void reset() {
    // Keep handlers open through shutdown hooks (see the class comment).
  }
}
