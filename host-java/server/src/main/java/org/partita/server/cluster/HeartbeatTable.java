package org.partita.server.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each host was last heard on the internal port (docs/cluster.md,
 * "Failure detection"): the incarnation and the local monotonic time of its
 * latest heartbeat. Kept by every voter; the metadata leader's table is what
 * failure detection (milestone 4) reads. Thread-safe.
 */
public final class HeartbeatTable {
  /** One host's latest heartbeat. */
  public record Heard(long incarnation, long atNanos) {}

  private final Map<Integer, Heard> latest = new ConcurrentHashMap<>();

  void record(int hostId, long incarnation, long atNanos) {
    latest.put(hostId, new Heard(incarnation, atNanos));
  }

  /** Host {@code hostId}'s latest heartbeat, or null when none came. */
  public Heard lastHeard(int hostId) {
    return latest.get(hostId);
  }
}
