package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.logging.Logger;
import org.partita.server.cluster.ClusterConfig;
import org.partita.server.durability.CommandLog;
import org.partita.server.durability.CommandLogMode;
import org.partita.server.durability.CommandLogOptions;
import org.partita.server.durability.CommandLogRecovery;
import org.partita.server.durability.DiskFailure;

/**
 * The command log of a cluster host (docs/durability.md, "On a cluster"):
 * one log per host, in {@code --data-dir/commandlog/} as on one host, into
 * which every copy the host holds (the partitions it leads and its replica
 * copies) writes the items it runs, in its partition's order, with the
 * records and group commit of one host. Opened once at start; the host
 * closes it after its database.
 */
final class ClusterLog {
  private static final Logger LOG = Logger.getLogger(ClusterLog.class.getName());
  /** A cluster host's log begins at epoch 1 and segment 1: it starts on a directory without a log. */
  private static final long FIRST_EPOCH = 1;

  private ClusterLog() {}

  /**
   * Refuses, before the host joins, a data directory that already holds a
   * command log: a cluster that restarts from its hosts' logs is not built
   * yet, and starting a new cluster over an old log would fork its history.
   */
  static void refuseExisting(ServerOptions options) throws StartupException {
    final Path dataDir = options.dataDir();
    try {
      if (dataDir != null && CommandLogRecovery.exists(dataDir)) {
        throw new StartupException(dataDir + " holds a command log from an earlier run of a cluster host; a cluster"
            + " does not restart from its hosts' command logs yet (docs/cluster.md, \"Durability on a cluster\"):"
            + " start this host on an empty --data-dir", null);
      }
    } catch (IOException e) {
      throw new StartupException("cannot read " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * A rejoining host (docs/cluster.md, "Rejoin") takes its copies from their
   * leaders, not from its own files, so the log of its earlier incarnation
   * describes copies it no longer has: it is moved aside to
   * {@code commandlog.before-rejoin/} (replacing one an earlier rejoin left),
   * kept for inspection, and the host starts a new log.
   */
  static void setAsideForRejoin(ServerOptions options) throws StartupException {
    final Path dataDir = options.dataDir();
    try {
      if (dataDir == null || !CommandLogRecovery.exists(dataDir)) {
        return;
      }
      final Path aside = dataDir.resolve(CommandLogRecovery.directory(dataDir).getFileName() + ".before-rejoin");
      deleteTree(aside);
      Files.move(CommandLogRecovery.directory(dataDir), aside, StandardCopyOption.ATOMIC_MOVE);
      LOG.info("command log: the log of this host's earlier incarnation moved to " + aside + "; a rejoining host"
          + " takes its copies from their leaders and starts a new log");
    } catch (IOException e) {
      throw new StartupException("cannot set aside the earlier command log in " + dataDir + " for a rejoin: "
          + e.getMessage(), e);
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Opens the host's log, or returns null when its mode is off. */
  static CommandLog open(ServerOptions options, ClusterConfig config, int fingerprint) throws StartupException {
    final CommandLogOptions logOptions = options.commandLog();
    if (logOptions.mode() == CommandLogMode.OFF) {
      return null;
    }
    try {
      final CommandLog log = CommandLog.open(options.dataDir(), logOptions, FIRST_EPOCH, config.partitionCount(),
          fingerprint, 1, DiskFailure.HALT);
      LOG.info("command log " + logOptions.mode() + " in " + options.dataDir() + ": every copy this host holds"
          + " logs what it runs" + (logOptions.mode() == CommandLogMode.SYNC
          ? "; a replica acknowledges an item only once it is on this host's disk" : ""));
      return log;
    } catch (IOException e) {
      throw new StartupException("command log in " + options.dataDir() + ": " + e.getMessage(), e);
    }
  }

  /** Closes {@code log} (null: nothing), after the database: what was queued is written and synced. */
  static void close(CommandLog log) {
    if (log == null) {
      return;
    }
    try {
      log.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warning("command log: interrupted while closing");
    }
  }
}
