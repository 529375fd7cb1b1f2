package org.partita.server.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each host was last heard on the internal port (docs/cluster.md,
 * "Failure detection"): the incarnation and the local monotonic time of its
 * latest heartbeat. Kept by every voter; the metadata leader's table is what
 * failure detection (milestone 4) reads. Thread-safe.
 *
 * <p>It also keeps the last heartbeat of the incarnation before the latest:
 * a host killed and started again at once heartbeats as its new
 * incarnation before it registers, while the cluster still lists the old
 * one up, and the old one's silence must still count from its own last
 * heartbeat ({@link #heardAt}).
 */
public final class HeartbeatTable {
  /** One host's latest heartbeat. */
  public record Heard(long incarnation, long atNanos) {}

  /** One host's latest heartbeat and the last one of the incarnation before it (null when none). */
  private record Last(Heard latest, Heard before) {}

  private final Map<Integer, Last> hosts = new ConcurrentHashMap<>();

  void record(int hostId, long incarnation, long atNanos) {
    final Heard heard = new Heard(incarnation, atNanos);
    hosts.compute(hostId, (id, last) -> last == null ? new Last(heard, null)
        : new Last(heard, last.latest().incarnation() == incarnation ? last.before() : last.latest()));
  }

  /** Host {@code hostId}'s latest heartbeat, or null when none came. */
  public Heard lastHeard(int hostId) {
    final Last last = hosts.get(hostId);
    return last == null ? null : last.latest();
  }

  /**
   * When host {@code hostId}'s {@code incarnation} was last heard (local
   * monotonic nanos), or -1 when this table holds no heartbeat of it.
   */
  long heardAt(int hostId, long incarnation) {
    final Last last = hosts.get(hostId);
    if (last == null) {
      return -1;
    }
    if (last.latest().incarnation() == incarnation) {
      return last.latest().atNanos();
    }
    return last.before() != null && last.before().incarnation() == incarnation ? last.before().atNanos() : -1;
  }
}
