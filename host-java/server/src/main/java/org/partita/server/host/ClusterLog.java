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
   * command log: starting a new cluster over an old log would fork its
   * history; a stopped cluster restarts from its logs with {@code --recover}.
   */
  static void refuseExisting(ServerOptions options) throws StartupException {
    final Path dataDir = options.dataDir();
    try {
      if (dataDir != null && CommandLogRecovery.exists(dataDir)) {
        throw new StartupException(dataDir + " holds a command log from an earlier run of a cluster host: a"
            + " stopped cluster restarts from its hosts' logs with every host started with --recover"
            + " (scripts/cluster start --recover; docs/cluster.md, \"Durability on a cluster\"), a host returns to"
            + " a running cluster with --rejoin, and a new cluster starts on empty data directories", null);
      }
    } catch (IOException e) {
      throw new StartupException("cannot read " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Refuses a recovery ({@code --recover}) without a log to recover from:
   * the host's copies would come back empty while the others' hold rows.
   * A log that holds no segment is one to recover from (empty) when the
   * directory ran as this host before ({@code claimedBefore}: its identity
   * file was there) with a log ({@code commandlog/} exists): a host killed
   * before its log took its first segment (no record reached it: in sync
   * mode no write of its copies was acknowledged).
   */
  static void requireExisting(ServerOptions options, boolean claimedBefore) throws StartupException {
    final Path dataDir = options.dataDir();
    if (options.commandLog().mode() == CommandLogMode.OFF) {
      throw new StartupException("--recover needs the command log the cluster ran with (--command-log sync or"
          + " async): a cluster restarts from its hosts' logs", null);
    }
    try {
      if (!CommandLogRecovery.exists(dataDir) && !ranWithEmptyLog(dataDir, claimedBefore)) {
        throw new StartupException("--recover, but " + dataDir + " holds no command log: this host has nothing to"
            + " recover its copies from; start it on the data directory it ran with (and every host with"
            + " --recover), or start a new cluster on empty data directories without --recover", null);
      }
    } catch (IOException e) {
      throw new StartupException("cannot read " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether {@code dataDir} is this host's directory from an earlier run that
   * opened a command log into which no record was ever written.
   */
  static boolean ranWithEmptyLog(Path dataDir, boolean claimedBefore) {
    final boolean empty = claimedBefore && Files.isDirectory(CommandLogRecovery.directory(dataDir));
    if (empty) {
      LOG.info("recovery: the command log in " + dataDir + " holds no record (this host ran with a log and was"
          + " stopped before anything was logged): its copies recover empty");
    }
    return empty;
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
    return open(options, config, fingerprint, FIRST_EPOCH, 1);
  }

  /**
   * Opens the host's log at segment {@code firstSegment}, its segments'
   * headers naming {@code epoch} (a recovered host continues its log after
   * the segments it replayed), or returns null when its mode is off.
   */
  static CommandLog open(ServerOptions options, ClusterConfig config, int fingerprint, long epoch,
      long firstSegment) throws StartupException {
    final CommandLogOptions logOptions = options.commandLog();
    if (logOptions.mode() == CommandLogMode.OFF) {
      return null;
    }
    try {
      final CommandLog log = CommandLog.open(options.dataDir(), logOptions, epoch, config.partitionCount(),
          fingerprint, firstSegment, DiskFailure.HALT);
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
