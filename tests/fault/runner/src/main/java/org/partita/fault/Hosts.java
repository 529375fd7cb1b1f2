package org.partita.fault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The system under test as the runner and the nemeses see it: hosts
 * numbered from 0, each started, stopped, killed, paused and restarted on
 * request. Every method returns when the action is done (a started host
 * answers, a killed one is dead). {@link #close} leaves nothing running.
 * Implementations: {@link SingleHost} (one {@code scripts/partita start});
 * a {@code scripts/cluster} implementation comes with that script.
 */
interface Hosts extends AutoCloseable {
  /** The hosts' client addresses (host:port), by host number. */
  List<String> addresses();

  /** Starts every host on a fresh data directory; returns when all answer. */
  void startAll() throws IOException, InterruptedException;

  /** Kills host {@code host} with SIGKILL. */
  void kill(int host) throws IOException, InterruptedException;

  /** Starts host {@code host} again after a kill or a stop (it recovers from its command log). */
  void restart(int host) throws IOException, InterruptedException;

  /** Stops host {@code host} with SIGSTOP. */
  void pause(int host) throws IOException, InterruptedException;

  /** Lets a paused host go on (SIGCONT). */
  void resume(int host) throws IOException, InterruptedException;

  /**
   * After a kill: drops everything the host wrote but had not synced, as a
   * power cut would. REQUIRES: the host was started under the power-cut shim
   * (the run asked for power-loss) and is dead.
   */
  void dropUnsyncedWrites(int host) throws IOException, InterruptedException;

  /** Resumes every paused host and starts every dead one (after the schedule, whatever it left). */
  void healAll() throws IOException, InterruptedException;

  /** Stops every host gracefully (every accepted call answered). */
  void stopAll() throws IOException, InterruptedException;

  /** Each host's server log files, kept in the run directory. */
  List<Path> logs();

  /** Kills whatever still runs (and resumes what is paused first). */
  @Override
  void close();

  /**
   * The hosts for a run: one host is a {@link SingleHost}; more need
   * {@code scripts/cluster} (issue "Cluster"), and the runner says so
   * clearly while it is missing.
   */
  static Hosts open(RunOptions options, Path runDir) {
    if (options.hosts() == 1) {
      return new SingleHost(options, runDir);
    }
    final Path cluster = options.root().resolve("scripts/cluster");
    if (!Files.isExecutable(cluster)) {
      throw new IllegalArgumentException("--hosts " + options.hosts() + " needs the cluster launcher "
          + cluster + ", which does not exist yet (issue \"Cluster\"); only --hosts 1 runs today");
    }
    throw new IllegalArgumentException("--hosts " + options.hosts() + ": " + cluster
        + " exists but the runner's cluster hosts are not written yet; only --hosts 1 runs today");
  }
}
