package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.topology.PartitionMap;

/**
 * Which copies a rejoined host is given (docs/cluster.md, "Rejoin"), as a
 * function of the committed metadata alone: every host that sees the same
 * metadata computes the same plan, so the leader of each partition knows,
 * without a command of its own, whether to stream that partition to a
 * joining host. The plan changes only through committed commands (a host
 * registered or serving, {@code MarkDead}, {@code AddReplica}), which is
 * what "the metadata leader assigns" means here.
 *
 * <p>The rules: a partition is under-replicated when it has fewer than K+1
 * copies and its leader's host is UP. A joining host is one UP and serving
 * that holds no copy of some under-replicated partition and fewer copies
 * than its sites per host S (a host never holds more copies than it has
 * sites). One host at a time: the plan names the joining host holding the
 * fewest copies (then the lowest id) and the under-replicated partitions it
 * does not hold, at most as many as it has room for, so a second returning
 * host waits until the first has its copies, and no partition streams to
 * two hosts at once. Its home partitions come first: those the formation's
 * placement ({@link Placement}) put on it. Taking them back restores the
 * formation's map as hosts return, which always has room for every copy;
 * a host that took another host's home partition instead could leave a
 * partition short with no host able to take it (each host with room
 * already holding a copy of it).
 *
 * <p>Immutable; any thread.
 */
public record RejoinPlan(int hostId, long incarnation, List<Integer> partitions) {
  public RejoinPlan {
    partitions = List.copyOf(partitions);
  }

  /**
   * The next host to give copies to and which, or null when no partition is
   * under-replicated or no host can take one.
   */
  public static RejoinPlan next(MetadataSnapshot state, int kFactor, int sitesPerHost) {
    if (!state.hasMap()) {
      return null;
    }
    final PartitionMap map = MetadataState.fromTopology(state.getMap(), state.getMap().getTopologyVersion());
    final Map<Integer, HostRecord> up = upHosts(state);
    final List<Integer> shortOfCopies = underReplicated(map, kFactor, up);
    HostRecord chosen = null;
    int chosenCopies = Integer.MAX_VALUE;
    for (HostRecord h : joining(map, up, shortOfCopies, sitesPerHost)) {
      final int copies = copiesOn(map, h.getHostId());
      if (copies < chosenCopies) {
        chosen = h;
        chosenCopies = copies;
      }
    }
    if (chosen == null) {
      return null;
    }
    final int host = chosen.getHostId();
    final PartitionMap formation = formation(map, kFactor, sitesPerHost);
    final List<Integer> home = new ArrayList<>();
    final List<Integer> other = new ArrayList<>();
    for (int p : shortOfCopies) {
      if (!map.replicas(p).replicaHosts().contains(host)) {
        (formation != null && formation.replicas(p).replicaHosts().contains(host) ? home : other).add(p);
      }
    }
    home.addAll(other);
    final int room = sitesPerHost - chosenCopies;
    return new RejoinPlan(host, chosen.getIncarnation(), home.subList(0, Math.min(room, home.size())));
  }

  /**
   * The joining hosts, by id: every host the plan may give copies to now or
   * once the hosts before it have theirs (the one {@link #next} names among
   * them). A host returning after it was declared dead is one of them from
   * when it serves until it holds its copies.
   */
  public static List<Integer> joiningHosts(MetadataSnapshot state, int kFactor, int sitesPerHost) {
    if (!state.hasMap()) {
      return List.of();
    }
    final PartitionMap map = MetadataState.fromTopology(state.getMap(), state.getMap().getTopologyVersion());
    final Map<Integer, HostRecord> up = upHosts(state);
    final List<Integer> out = new ArrayList<>();
    for (HostRecord h : joining(map, up, underReplicated(map, kFactor, up), sitesPerHost)) {
      out.add(h.getHostId());
    }
    return out;
  }

  /**
   * The hosts UP and serving that hold fewer copies than the average of the
   * UP hosts and than {@code sitesPerHost}, and no copy of some partition
   * of {@code shortOfCopies}; by id.
   */
  private static List<HostRecord> joining(PartitionMap map, Map<Integer, HostRecord> up, List<Integer> shortOfCopies,
      int sitesPerHost) {
    long total = 0;
    for (int host : up.keySet()) {
      total += copiesOn(map, host);
    }
    final List<HostRecord> out = new ArrayList<>();
    for (HostRecord h : up.values()) {
      final int copies = copiesOn(map, h.getHostId());
      final boolean belowAverage = (long) copies * up.size() < total;
      if (h.getServing() && belowAverage && copies < sitesPerHost && lacksAny(map, shortOfCopies, h.getHostId())) {
        out.add(h);
      }
    }
    return out;
  }

  private static Map<Integer, HostRecord> upHosts(MetadataSnapshot state) {
    final Map<Integer, HostRecord> up = new TreeMap<>();
    for (HostRecord h : state.getHostsList()) {
      if (h.getState() == HostState.HOST_STATE_UP) {
        up.put(h.getHostId(), h);
      }
    }
    return up;
  }

  /**
   * The map the cluster formed with ({@link Placement}: H = P·(K+1)/S
   * hosts), or null when {@code map}'s partition count does not come from
   * that placement (then no partition is anyone's home).
   */
  private static PartitionMap formation(PartitionMap map, int kFactor, int sitesPerHost) {
    final long slots = (long) map.partitionCount() * (kFactor + 1);
    if (slots % sitesPerHost != 0) {
      return null;
    }
    try {
      final PartitionMap formed = Placement.of((int) (slots / sitesPerHost), sitesPerHost, kFactor);
      return formed.partitionCount() == map.partitionCount() ? formed : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** The partitions with fewer than K+1 copies whose leader's host is up, in partition order. */
  static List<Integer> underReplicated(PartitionMap map, int kFactor, Map<Integer, HostRecord> up) {
    final List<Integer> out = new ArrayList<>();
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas copies = map.replicas(p);
      if (copies.replicaHosts().size() < kFactor + 1 && up.containsKey(copies.leaderHost())) {
        out.add(p);
      }
    }
    return out;
  }

  private static int copiesOn(PartitionMap map, int host) {
    int n = 0;
    for (int p = 0; p < map.partitionCount(); p++) {
      if (map.replicas(p).replicaHosts().contains(host)) {
        n++;
      }
    }
    return n;
  }

  private static boolean lacksAny(PartitionMap map, List<Integer> partitions, int host) {
    for (int p : partitions) {
      if (!map.replicas(p).replicaHosts().contains(host)) {
        return true;
      }
    }
    return false;
  }

  /** True when this plan streams {@code partition} to its host. */
  public boolean gives(int partition) {
    return partitions.contains(partition);
  }
}
