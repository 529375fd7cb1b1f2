package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MarkDead;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * The metadata leader's failure detector (docs/cluster.md, "Failure
 * detection and failover"): which hosts to declare dead now. A host is due
 * when its current incarnation has not been heard for longer than the
 * heartbeat timeout, counting from this voter's election at the earliest (a
 * new metadata leader has no heartbeat history, so every host's silence
 * starts with its election), and from when this detector first saw that
 * incarnation registered (a host back by rejoin registers a new
 * incarnation, whose first heartbeat may reach this voter after the
 * registration). The detector's own incarnation is never due; an earlier
 * incarnation of its host id still listed up is, like any other host's: a
 * rejoining voter can lead the metadata group while it waits for its
 * previous incarnation to be declared dead (it was the leader, or the
 * survivors had not elected one yet), and no other voter declares anything
 * then.
 *
 * <p>One exception to the election floor: the host that led the metadata
 * group before this voter (when this voter saw one) is counted from its
 * last heartbeat here. Its silence is what the election was about: this
 * voter only won after the old leader stopped reaching a majority, and a
 * host still alive keeps heartbeating to every voter, this one included.
 * Without it, a kill of the metadata leader's host waited for an election
 * (1-2 s) and then a whole timeout before its partitions moved.
 *
 * <p>{@link FailureDetection} runs it on every voter of a cluster with
 * K ≥ 1; only the metadata leader's finds anything due.
 *
 * <p>Thread model: one caller at a time (the metadata leader's timer).
 */
final class FailureDetector {
  private final int selfHost;
  private final long selfIncarnation;
  private final HeartbeatTable heartbeats;
  private final long timeoutNanos;
  private final LongSupplier clock;
  /** When this voter became the metadata leader (clock nanos), or -1 while it does not lead. */
  private long leaderSince = -1;
  /** The host that led the metadata group before this voter, or -1 when none was seen. */
  private int previousLeader = -1;
  /** Host id -> {incarnation, when this detector first saw it UP (clock nanos)}. */
  private final java.util.Map<Integer, long[]> firstSeen = new java.util.HashMap<>();
  /** False until the first {@link #due} since the election: the incarnations it finds count from the election. */
  private boolean primed;

  /**
   * @param clock monotonic nanoseconds, the clock the heartbeat table was filled with
   */
  FailureDetector(int selfHost, long selfIncarnation, HeartbeatTable heartbeats, long timeoutNanos,
      LongSupplier clock) {
    this.selfHost = selfHost;
    this.selfIncarnation = selfIncarnation;
    this.heartbeats = heartbeats;
    this.timeoutNanos = timeoutNanos;
    this.clock = clock;
  }

  /**
   * This voter leads the metadata group from now on; {@code previousLeader}
   * is the host this voter last saw leading it (-1 when none).
   */
  void becameLeader(int previousLeader) {
    leaderSince = clock.getAsLong();
    this.previousLeader = previousLeader;
    firstSeen.clear();
    primed = false;
  }

  /** This voter no longer leads: it declares nothing until it leads again. */
  void lostLeadership() {
    leaderSince = -1;
  }

  /** The MarkDead commands due now against {@code state}; empty while this voter does not lead. */
  List<MarkDead> due(MetadataSnapshot state) {
    if (leaderSince < 0) {
      return List.of();
    }
    final long now = clock.getAsLong();
    final long seenNow = primed ? now : leaderSince;
    primed = true;
    final List<MarkDead> out = new ArrayList<>();
    for (HostRecord host : state.getHostsList()) {
      if (host.getState() != HostState.HOST_STATE_UP
          || host.getHostId() == selfHost && host.getIncarnation() == selfIncarnation) {
        continue;
      }
      final long heardAt = heartbeats.heardAt(host.getHostId(), host.getIncarnation());
      final long floor = host.getHostId() == previousLeader ? Long.MIN_VALUE : leaderSince;
      final long since = heardAt >= 0 ? Math.max(heardAt, floor) : Math.max(leaderSince, firstSeen(host, seenNow));
      if (now - since > timeoutNanos) {
        out.add(MarkDead.newBuilder().setHostId(host.getHostId()).setIncarnation(host.getIncarnation()).build());
      }
    }
    return out;
  }

  /** When this detector first saw {@code host}'s current incarnation UP ({@code now} the first time). */
  private long firstSeen(HostRecord host, long now) {
    final long[] seen = firstSeen.get(host.getHostId());
    if (seen != null && seen[0] == host.getIncarnation()) {
      return seen[1];
    }
    firstSeen.put(host.getHostId(), new long[] {host.getIncarnation(), now});
    return now;
  }
}
