package org.partita.fault;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;

/**
 * The system under test as the runner and the nemeses see it: hosts
 * numbered from 0, each started, stopped, killed, paused and restarted on
 * request. Every method returns when the action is done (a started host
 * answers, a killed one is dead). {@link #close} leaves nothing running.
 * Implementations: {@link SingleHost} (one {@code scripts/partita start})
 * and {@link ClusterHosts} (a local cluster through {@code scripts/cluster}).
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

  /**
   * After {@link #kill}: brings the system back to serving. On one host
   * that is {@link #restart} (recovery from the command log); on a cluster
   * the killed host stays dead (rejoin is not built yet, docs/cluster.md
   * milestone 5), and this returns once the survivors lead every partition
   * it led (failover). Throws when that does not happen in time.
   */
  void recover(int host) throws IOException, InterruptedException;

  /**
   * The hosts that were not killed for good: every host on one host (a
   * killed host starts again); on a cluster those no {@link #kill} hit.
   * Final reads and copy checksums come from these.
   */
  List<Integer> survivors();

  /** How many hosts may die at once without losing a partition's last copy (K; 0 on one host). */
  default int kfactor() {
    return 0;
  }

  /**
   * The host leading partition 0 in the cluster's map, which coordinates
   * every multi-partition transaction (docs/cluster.md, "Multi-partition
   * work across hosts"); 0 on one host.
   */
  int coordinator();

  /**
   * The host leading the cluster's metadata group, when known (a cluster
   * with K ≥ 1 logs its elections); empty on one host (no metadata group).
   */
  OptionalInt metadataLeader();

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

  /**
   * After every host was killed (kill-all, power-loss on a cluster): starts
   * the whole cluster again on its data directories, from the hosts'
   * command logs ({@code scripts/cluster start --recover}, docs/cluster.md
   * "Durability on a cluster"), and returns once every host serves and
   * every partition has its K+1 copies. Only on a cluster.
   */
  default void restartAll() throws IOException, InterruptedException {
    throw new IllegalStateException("only a cluster restarts every host at once");
  }

  /** Heals the network, resumes every paused host and starts every dead one (after the schedule, whatever it left). */
  void healAll() throws IOException, InterruptedException;

  /** Stops every host gracefully (every accepted call answered). */
  void stopAll() throws IOException, InterruptedException;

  /**
   * Whether a killed or stopped host can start again ({@link #restart}):
   * true on one host (it recovers from its command log); false on a
   * cluster until rejoin exists (docs/cluster.md, milestone 5).
   */
  boolean restartable();

  /**
   * Whether a killed cluster host comes back in this run, by rejoin
   * ({@link #restart} on a cluster: the run asked for the {@code rejoin}
   * nemesis, docs/cluster.md "Rejoin"); false on one host.
   */
  default boolean rejoins() {
    return false;
  }

  /**
   * On a cluster with K ≥ 1: returns once a surviving host's map shows
   * {@code host} declared dead (no partition keeps a copy on it); throws
   * when that does not happen in time. Not on one host.
   */
  default void awaitDeclaredDead(int host) throws InterruptedException {
    throw new IllegalStateException("no host is declared dead on one host: isolate needs a cluster");
  }

  /**
   * On a cluster with K ≥ 1: returns once the map of a surviving host other
   * than {@code host} shows every partition with its K+1 copies ({@code
   * host}, declared dead, has rejoined); throws when that does not happen in
   * time. Not on one host.
   */
  default void awaitRejoined(int host) throws InterruptedException {
    throw new IllegalStateException("one host has no copies to wait for: isolate needs a cluster");
  }

  /** Cuts the network between hosts as {@code grudge} says, replacing any cut in force. */
  void cut(Grudge grudge) throws IOException, InterruptedException;

  /** Removes every cut (nothing to do when none is in force). */
  void healNetwork() throws IOException, InterruptedException;

  /** Each host's server log files, kept in the run directory. */
  List<Path> logs();

  /** Kills whatever still runs (and resumes what is paused first). */
  @Override
  void close();

  /** The hosts for a run: one host is a {@link SingleHost}, more a {@link ClusterHosts}. */
  static Hosts open(RunOptions options, Path runDir) {
    return options.hosts() == 1 ? new SingleHost(options, runDir) : new ClusterHosts(options, runDir);
  }
}
