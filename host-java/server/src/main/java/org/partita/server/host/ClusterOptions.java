package org.partita.server.host;

import java.time.Duration;

/**
 * How a host takes part in a cluster (docs/command-line.md,
 * {@code partita start --cluster}); checked when the host starts
 * ({@code cluster.ClusterConfig}).
 *
 * @param hosts every host's internal address, {@code host:port,host:port,...}; a host's id is its position
 * @param hostId this host's position in {@code hosts}, from 0
 * @param kFactor copies of each partition minus one
 * @param sitesPerHost partitions (site threads) each host holds
 * @param joinTimeout how long the host waits for the metadata group and the other hosts at start
 * @param heartbeatTimeout how long a host may stay silent before the metadata leader declares it dead (K ≥ 1)
 * @param rejoin the host returns to a running cluster that declared it dead ({@code --rejoin}, docs/cluster.md)
 * @param recover the whole cluster restarts on its hosts' data directories from their command logs
 *     ({@code --recover}, docs/cluster.md, "Durability on a cluster")
 * @param leaderRebalanceDelay with K ≥ 1: how long the map of a whole cluster must stay the same before leaders
 *     move back to copies on hosts that lead too few ({@code --leader-rebalance-delay}, docs/cluster.md, "Leader
 *     rebalancing"); zero: never
 */
public record ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout,
    Duration heartbeatTimeout, boolean rejoin, boolean recover, Duration leaderRebalanceDelay) {
  /** The default of {@code --join-timeout}. */
  public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(60);
  /** The default of {@code --heartbeat-timeout} (docs/cluster.md, "Failure detection and failover"). */
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);
  /** The shortest {@code --heartbeat-timeout}: a few heartbeats (every 500 ms) must fit in it. */
  public static final Duration MIN_HEARTBEAT_TIMEOUT = Duration.ofMillis(1500);
  /** The default of {@code --leader-rebalance-delay}. */
  public static final Duration DEFAULT_LEADER_REBALANCE_DELAY = Duration.ofSeconds(5);

  public ClusterOptions {
    if (joinTimeout.isNegative() || joinTimeout.isZero()) {
      throw new IllegalArgumentException("--join-timeout must be positive, got " + joinTimeout.toMillis() + " ms");
    }
    if (heartbeatTimeout.compareTo(MIN_HEARTBEAT_TIMEOUT) < 0) {
      throw new IllegalArgumentException("--heartbeat-timeout must be at least " + MIN_HEARTBEAT_TIMEOUT.toMillis()
          + " ms (hosts send a heartbeat every 500 ms), got " + heartbeatTimeout.toMillis() + " ms");
    }
    if (leaderRebalanceDelay.isNegative()) {
      throw new IllegalArgumentException("--leader-rebalance-delay must not be negative");
    }
    if (rejoin && recover) {
      throw new IllegalArgumentException("--rejoin and --recover exclude each other: --rejoin brings one host back"
          + " to a running cluster, --recover restarts a whole stopped cluster from its hosts' command logs");
    }
  }

  /** With the default leader rebalance delay. */
  public ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout,
      Duration heartbeatTimeout, boolean rejoin, boolean recover) {
    this(hosts, hostId, kFactor, sitesPerHost, joinTimeout, heartbeatTimeout, rejoin, recover,
        DEFAULT_LEADER_REBALANCE_DELAY);
  }

  /** A host forming the cluster, or with {@code rejoin} returning to it (not a recovery). */
  public ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout,
      Duration heartbeatTimeout, boolean rejoin) {
    this(hosts, hostId, kFactor, sitesPerHost, joinTimeout, heartbeatTimeout, rejoin, false);
  }

  /** The same options with {@code --rejoin}: the host returns as a new incarnation. */
  public ClusterOptions forRejoin() {
    return new ClusterOptions(hosts, hostId, kFactor, sitesPerHost, joinTimeout, heartbeatTimeout, true, false,
        leaderRebalanceDelay);
  }

  /** A host forming the cluster (not a rejoin). */
  public ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout,
      Duration heartbeatTimeout) {
    this(hosts, hostId, kFactor, sitesPerHost, joinTimeout, heartbeatTimeout, false);
  }

  /** With the default heartbeat timeout. */
  public ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout) {
    this(hosts, hostId, kFactor, sitesPerHost, joinTimeout, DEFAULT_HEARTBEAT_TIMEOUT);
  }
}
