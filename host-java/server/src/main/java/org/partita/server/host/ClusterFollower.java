package org.partita.server.host;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.database.Database;
import org.partita.server.replication.Replication;
import org.partita.server.topology.PartitionMap;

/**
 * A cluster host with K ≥ 1 following failovers (docs/cluster.md, "Failure
 * detection and failover"): every newer metadata the host sees is compared
 * with the map it serves, and each partition whose epoch moved is changed
 * here to match it. A copy left as its partition's only one leads it in the
 * new epoch (a leader releases the answers its dead replica held; a replica
 * queues everything its dead leader sent, then its site sequences in the
 * new epoch); a copy the map no longer holds stops (held answers fail as
 * OUTCOME_UNKNOWN, new calls get NOT_LEADER). A host the metadata declares
 * dead, or one cut off from a majority of the metadata voters for the
 * heartbeat timeout, stops serving altogether (self-stop) and stays stopped:
 * it comes back only by rejoin, as a new incarnation ({@link ClusterRejoin}
 * makes the changes of the map a rejoin brings).
 *
 * <p>A partition that keeps more than one copy after a failover (K ≥ 2)
 * needs repair among its survivors before it takes work, which is not
 * built: such a partition is logged and left waiting.
 *
 * <p>Owns one daemon thread on which every change is made, in the order the
 * metadata came; the watch's threads only hand the metadata over.
 */
final class ClusterFollower implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterFollower.class.getName());
  private static final long CONTROL_CHECK_MILLIS = 100;

  private final ClusterMember member;
  private final Database database;
  private final Replication replication;
  private final long timeoutNanos;
  private final Runnable mapChanged;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "partita-cluster-follower");
    t.setDaemon(true);
    return t;
  });
  // Follower thread only.
  private PartitionMap current;
  private long appliedIndex;
  private long votersLostSince = -1;
  private volatile String stopped;
  /** Rejoin's hook for the partitions whose epoch moved (docs/cluster.md, "Rejoin"), or null. */
  private volatile ClusterRejoin rejoin;

  /**
   * @param mapChanged told after each map this host follows (the client topology push)
   */
  ClusterFollower(ClusterMember member, Database database, Replication replication, Duration heartbeatTimeout,
      Runnable mapChanged) {
    this.member = member;
    this.database = database;
    this.replication = replication;
    this.timeoutNanos = heartbeatTimeout.toNanos();
    this.mapChanged = mapChanged;
    this.current = database.partitionMap();
  }

  /** From now on the rejoin's changes of the map are made by {@code hook} (before {@link #start}). */
  void withRejoin(ClusterRejoin hook) {
    rejoin = hook;
  }

  void start() {
    member.followMetadata(state -> thread.execute(() -> follow(state)));
    thread.execute(() -> follow(member.metadata()));
    thread.scheduleWithFixedDelay(this::checkControlPlane, CONTROL_CHECK_MILLIS, CONTROL_CHECK_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  /** Why this host stopped serving, or null while it serves. */
  String stopped() {
    return stopped;
  }

  private void follow(MetadataSnapshot state) {
    try {
      if (state.getAppliedIndex() <= appliedIndex) {
        return;
      }
      appliedIndex = state.getAppliedIndex();
      final HostRecord self = hostRecord(state, member.hostId());
      if (self != null && (self.getIncarnation() != member.incarnation()
          || self.getState() == HostState.HOST_STATE_DEAD)) {
        selfStop("the metadata group declared this host's incarnation " + member.incarnation() + " dead");
      }
      if (!state.hasMap()) {
        return;
      }
      final PartitionMap next = ClusterMember.mapOf(state);
      if (next.version() <= current.version()) {
        return;
      }
      if (stopped == null) {
        for (int p = 0; p < next.partitionCount(); p++) {
          change(p, current.replicas(p), next.replicas(p));
        }
      }
      database.followMap(next);
      current = next;
      mapChanged.run();
    } catch (RuntimeException e) {
      LOG.severe("cluster: following the metadata at applied index " + state.getAppliedIndex() + " failed: " + e);
    }
  }

  /** Makes this host's copy of partition {@code p} what {@code next} says, if it held one in {@code old}. */
  private void change(int p, PartitionMap.Replicas old, PartitionMap.Replicas next) {
    final int self = member.hostId();
    final ClusterRejoin hook = rejoin;
    if (next.epoch() != old.epoch() && hook != null && hook.follow(p, old, next)) {
      return;
    }
    if (next.epoch() == old.epoch() || !old.replicaHosts().contains(self)) {
      return;
    }
    if (!next.replicaHosts().contains(self)) {
      replication.leave(p, "the metadata group moved partition " + p + " to epoch " + next.epoch() + " on hosts "
          + next.replicaHosts());
      return;
    }
    if (next.leaderHost() == self && next.replicaHosts().size() == 1) {
      final long start = System.nanoTime();
      final boolean led = old.leaderHost() == self;
      database.lead(p, next.epoch(), replication.keepAlone(p, next.epoch()));
      LOG.warning("cluster: failover: this host (" + self + ") " + (led ? "keeps leading" : "now leads")
          + " partition " + p + " in epoch " + next.epoch() + " as its only copy (was led by host "
          + old.leaderHost() + " on hosts " + old.replicaHosts() + "); switched in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
      return;
    }
    LOG.severe("cluster: partition " + p + " moved to epoch " + next.epoch() + " led by host " + next.leaderHost()
        + " with copies on hosts " + next.replicaHosts() + ": a failover that keeps more than one copy needs repair"
        + " among the survivors, which is not built yet (K >= 2; docs/cluster.md); this copy waits and the"
        + " partition's calls are not answered");
  }

  /**
   * A replica of partition {@code p}, which this host leads in {@code epoch},
   * ran an item with another write hash and stopped its copy: asks the
   * metadata group for the next epoch without it (same leader, smaller set),
   * which this host then follows like a failover, so the partition's
   * answers flow again. Any thread: the request runs on the follower's.
   */
  void dropDiverged(int p, long epoch, int replicaHost) {
    thread.execute(() -> {
      final PartitionMap.Replicas copies = current.replicas(p);
      if (stopped != null || copies.epoch() != epoch || !copies.replicaHosts().contains(replicaHost)) {
        return;
      }
      final java.util.List<Integer> rest = copies.replicaHosts().stream().filter(h -> h != replicaHost).toList();
      try {
        final org.partita.proto.cluster.MetadataReply reply = member.changeLeader(p, epoch, member.hostId(), rest);
        LOG.warning("cluster: partition " + p + ": asked the metadata group to drop replica host " + replicaHost
            + " (its write hash differed): " + (reply.getApplied() ? "epoch " + (epoch + 1) + " on hosts " + rest
            : "refused: " + reply.getRefusal()));
      } catch (java.io.IOException e) {
        LOG.severe("cluster: partition " + p + ": could not ask the metadata group to drop replica host "
            + replicaHost + ": " + e.getMessage());
      }
    });
  }

  private static HostRecord hostRecord(MetadataSnapshot state, int hostId) {
    for (HostRecord h : state.getHostsList()) {
      if (h.getHostId() == hostId) {
        return h;
      }
    }
    return null;
  }

  /** Self-stop when a majority of the voters has been unreachable for the heartbeat timeout. */
  private void checkControlPlane() {
    if (stopped != null) {
      return;
    }
    final int majority = member.config().voterCount() / 2 + 1;
    final long now = System.nanoTime();
    if (member.connectedVoters() >= majority) {
      votersLostSince = -1;
      return;
    }
    if (votersLostSince < 0) {
      votersLostSince = now;
    } else if (now - votersLostSince > timeoutNanos) {
      selfStop("this host reached fewer than " + majority + " of the " + member.config().voterCount()
          + " metadata voters for the heartbeat timeout (" + timeoutNanos / 1_000_000 + " ms)");
    }
  }

  private void selfStop(String why) {
    if (stopped != null) {
      return;
    }
    stopped = why;
    LOG.severe("cluster: this host (" + member.hostId() + ") stops serving: " + why + ". Its held answers fail as "
        + "OUTCOME_UNKNOWN and its partitions' calls are answered NOT_LEADER; it returns only by rejoin "
        + "(docs/cluster.md, milestone 5)");
    replication.leaveAll(why);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
