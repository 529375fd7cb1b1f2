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
 */
public record ClusterOptions(String hosts, int hostId, int kFactor, int sitesPerHost, Duration joinTimeout) {
  /** The default of {@code --join-timeout}. */
  public static final Duration DEFAULT_JOIN_TIMEOUT = Duration.ofSeconds(60);

  public ClusterOptions {
    if (joinTimeout.isNegative() || joinTimeout.isZero()) {
      throw new IllegalArgumentException("--join-timeout must be positive, got " + joinTimeout.toMillis() + " ms");
    }
  }
}
