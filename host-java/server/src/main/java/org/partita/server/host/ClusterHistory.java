package org.partita.server.host;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.cluster.RejoinPlan;
import org.partita.server.sysproc.ClusterStatus;
import org.partita.server.topology.PartitionMap;

/**
 * What a cluster host shows on its cluster page (docs/cluster.md, "The
 * cluster page"): the newest metadata it has seen and the changes between
 * the metadata it saw since it started, each with the time it saw it: hosts
 * declared dead or registered again, partitions with a new leader, a copy
 * added by a rejoin or another new set of copies, and hosts that finished
 * rejoining. A host is shown rejoining while the rejoin plan counts it
 * among the joining hosts ({@link RejoinPlan#joiningHosts}); it has
 * rejoined when it no longer is one and is still up in the same
 * incarnation. Older metadata offered late is ignored. Keeps the last
 * {@link #MAX_CHANGES} changes.
 *
 * <p>Thread-safe (monitor): {@link #observe} runs on whichever thread brought
 * the metadata and never blocks; {@link #status} on any thread.
 */
final class ClusterHistory {
  static final int MAX_CHANGES = 100;

  private final int selfHostId;
  private final int kFactor;
  private final int sitesPerHost;
  private final LongSupplier wallClockMillis;
  private final ArrayDeque<ClusterStatus.Change> changes = new ArrayDeque<>();
  private MetadataSnapshot current = MetadataSnapshot.getDefaultInstance();
  /** The joining hosts of {@link #current}, by id. */
  private List<Integer> joining = List.of();
  /** When this host saw each host register again (wall clock, ms), by host id; until it rejoined or died. */
  private final Map<Integer, Long> registeredAgainAt = new HashMap<>();

  /**
   * @param selfHostId this host's id
   * @param kFactor the cluster's K, and {@code sitesPerHost} its sites per host (what the rejoin plan needs)
   * @param wallClockMillis the clock changes are stamped with
   */
  ClusterHistory(int selfHostId, int kFactor, int sitesPerHost, LongSupplier wallClockMillis) {
    this.selfHostId = selfHostId;
    this.kFactor = kFactor;
    this.sitesPerHost = sitesPerHost;
    this.wallClockMillis = wallClockMillis;
  }

  /** Takes {@code state} if it is newer than the last seen, recording what changed. */
  synchronized void observe(MetadataSnapshot state) {
    if (state.getAppliedIndex() <= current.getAppliedIndex()) {
      return;
    }
    final MetadataSnapshot before = current;
    final List<Integer> joiningBefore = joining;
    current = state;
    joining = RejoinPlan.joiningHosts(state, kFactor, sitesPerHost);
    if (before.getAppliedIndex() == 0) {
      return; // the first metadata seen is where the history starts
    }
    final long now = wallClockMillis.getAsLong();
    final long version = state.hasMap() ? state.getMap().getTopologyVersion() : 0;
    // A metadata's changes in this order: its hosts' (died, registered again, rejoined), then its partitions'.
    hostChanges(before, state, now, version);
    rejoinsDone(joiningBefore, byId(before), state, now, version);
    if (before.hasMap() && state.hasMap() && version != before.getMap().getTopologyVersion()) {
      partitionChanges(ClusterMember.mapOf(before), ClusterMember.mapOf(state), state.getAppliedIndex(), now);
    }
  }

  private void hostChanges(MetadataSnapshot before, MetadataSnapshot state, long now, long version) {
    final Map<Integer, HostRecord> old = byId(before);
    for (HostRecord h : state.getHostsList()) {
      final HostRecord was = old.get(h.getHostId());
      if (h.getState() == HostState.HOST_STATE_DEAD && (was == null || was.getState() != HostState.HOST_STATE_DEAD)) {
        registeredAgainAt.remove(h.getHostId());
        add(new ClusterStatus.Change(now, state.getAppliedIndex(), version, "HOST_DEAD", h.getHostId(), -1,
            "host " + h.getHostId() + " declared dead (incarnation " + h.getIncarnation() + ")"));
      } else if (h.getState() == HostState.HOST_STATE_UP && was != null
          && was.getIncarnation() != h.getIncarnation()) {
        registeredAgainAt.put(h.getHostId(), now);
        add(new ClusterStatus.Change(now, state.getAppliedIndex(), version, "HOST_UP", h.getHostId(), -1,
            "host " + h.getHostId() + " registered again (incarnation " + h.getIncarnation() + ")"));
      }
    }
  }

  private void partitionChanges(PartitionMap before, PartitionMap after, long index, long now) {
    for (int p = 0; p < Math.min(before.partitionCount(), after.partitionCount()); p++) {
      final PartitionMap.Replicas was = before.replicas(p);
      final PartitionMap.Replicas is = after.replicas(p);
      if (was.epoch() == is.epoch()) {
        continue;
      }
      if (was.leaderHost() != is.leaderHost()) {
        add(new ClusterStatus.Change(now, index, after.version(), "NEW_LEADER", is.leaderHost(), p,
            "partition " + p + ": leader host " + was.leaderHost() + " -> host " + is.leaderHost()
            + (is.replicaHosts().contains(was.leaderHost()) ? " (handed over by rebalancing)" : "") + ", copies on "
            + hosts(is) + ", epoch " + is.epoch()));
        continue;
      }
      final List<Integer> added = is.replicaHosts().stream().filter(h -> !was.replicaHosts().contains(h)).toList();
      if (!added.isEmpty() && is.replicaHosts().containsAll(was.replicaHosts())) {
        add(new ClusterStatus.Change(now, index, after.version(), "COPY_ADDED", added.get(0), p,
            "partition " + p + ": " + added.stream().map(h -> "host " + h).collect(Collectors.joining(", "))
            + " rejoined as a copy, copies on " + hosts(was) + " -> " + hosts(is) + " (leader host "
            + is.leaderHost() + "), epoch " + is.epoch()));
      } else {
        add(new ClusterStatus.Change(now, index, after.version(), "REPLICAS", is.leaderHost(), p,
            "partition " + p + ": copies on " + hosts(was) + " -> " + hosts(is) + " (leader host " + is.leaderHost()
            + "), epoch " + is.epoch()));
      }
    }
  }

  /** A host that was joining and is not now, still up in the same incarnation, has rejoined. */
  private void rejoinsDone(List<Integer> joiningBefore, Map<Integer, HostRecord> old, MetadataSnapshot state, long now,
      long version) {
    final Map<Integer, HostRecord> hosts = byId(state);
    final PartitionMap map = ClusterMember.mapOf(state);
    for (int id : joiningBefore) {
      final HostRecord was = old.get(id);
      final HostRecord is = hosts.get(id);
      if (joining.contains(id) || is == null || is.getState() != HostState.HOST_STATE_UP
          || was.getIncarnation() != is.getIncarnation()) {
        continue;
      }
      final Long since = registeredAgainAt.remove(id);
      final List<Integer> held = map.partitionsHeldBy(id);
      add(new ClusterStatus.Change(now, state.getAppliedIndex(), version, "HOST_REJOINED", id, -1,
          "host " + id + " rejoined: it holds copies of partition" + (held.size() == 1 ? " " : "s ")
          + held.stream().map(String::valueOf).collect(Collectors.joining(", "))
          + (since == null ? "" : String.format(Locale.ROOT, ", %.1f s after it registered again",
              (now - since) / 1000.0))));
    }
  }

  private void add(ClusterStatus.Change change) {
    changes.addLast(change);
    while (changes.size() > MAX_CHANGES) {
      changes.removeFirst();
    }
  }

  /** The cluster as this host sees it now. REQUIRES: a metadata with a map was observed. */
  synchronized ClusterStatus status() {
    final Map<Integer, HostRecord> records = byId(current);
    final int count = Math.max(current.getHostCount(), records.keySet().stream().mapToInt(i -> i + 1).max().orElse(0));
    final List<ClusterStatus.Host> hosts = new ArrayList<>(count);
    for (int id = 0; id < count; id++) {
      final HostRecord h = records.get(id);
      hosts.add(h == null ? new ClusterStatus.Host(id, ClusterStatus.HostState.UNKNOWN, 0, "", "")
          : new ClusterStatus.Host(id, state(h), h.getIncarnation(), h.getClientAddress(), h.getHttpAddress()));
    }
    return new ClusterStatus(selfHostId, current.getAppliedIndex(), ClusterMember.mapOf(current), hosts,
        new ArrayList<>(changes));
  }

  private ClusterStatus.HostState state(HostRecord h) {
    if (h.getState() == HostState.HOST_STATE_DEAD) {
      return ClusterStatus.HostState.DEAD;
    }
    if (joining.contains(h.getHostId())) {
      return ClusterStatus.HostState.REJOINING;
    }
    return h.getServing() ? ClusterStatus.HostState.SERVING : ClusterStatus.HostState.STARTING;
  }

  private static Map<Integer, HostRecord> byId(MetadataSnapshot state) {
    final Map<Integer, HostRecord> out = new HashMap<>();
    for (HostRecord h : state.getHostsList()) {
      out.put(h.getHostId(), h);
    }
    return out;
  }

  private static String hosts(PartitionMap.Replicas r) {
    return r.replicaHosts().stream().map(String::valueOf).collect(Collectors.joining(","));
  }
}
