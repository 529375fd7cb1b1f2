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
 * OUTCOME_UNKNOWN, new calls get NOT_LEADER). With several copies left
 * (K ≥ 2) the survivors repair first (docs/cluster.md, "Repair among
 * survivors"): the one that leads next takes the longest order any of them
 * received and sends each the items it lacks before it takes new work; a
 * leader that keeps leading with fewer replicas moves to a new pipeline, and
 * a replica that keeps its leader enters the new epoch after the old one. A host the metadata declares
 * dead, or one cut off from a majority of the metadata voters for the
 * heartbeat timeout, stops serving altogether (self-stop) and never serves
 * again in that incarnation: it comes back only by rejoin, as a new
 * incarnation ({@link ClusterRejoin} makes the changes of the map a rejoin
 * brings). Once it reaches the metadata group again and reads its own
 * incarnation declared dead, it tells {@link #whenDeclaredDead}'s hook
 * (the server restarts itself in the process with {@code --rejoin}); a host
 * that stopped while cut off but finds itself still up when it reaches a
 * majority of the voters again asks the group to declare it dead first, so
 * its partitions move to their other copies and it then rejoins the same
 * way (docs/cluster.md, "Network partitions").
 *
 * <p>Owns one daemon thread on which every change is made, in the order the
 * metadata came; the watch's threads only hand the metadata over.
 */
final class ClusterFollower implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterFollower.class.getName());
  private static final long CONTROL_CHECK_MILLIS = 100;
  /** How long the survivor that leads next waits for the other survivors' repair offers before it looks again. */
  static final long REPAIR_WAIT_MILLIS = 10_000;
  /** How often a diverged replica's drop is asked for when the metadata refuses it (its epoch moved meanwhile). */
  private static final int DROP_ATTEMPTS = 20;
  private static final long DROP_RETRY_NANOS = 100_000_000L;

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
  /** The control plane was lost (not a declaration read): this host asks for its own MarkDead on reconnection. */
  private boolean stoppedCutOff;
  private long lastSelfDeclareNanos;
  /** The metadata showed this incarnation dead or replaced: nothing more to ask for. */
  private boolean gone;
  private boolean declaredDeadTold;
  private volatile String stopped;
  /** Told once, with the reason, when this host reads its own incarnation declared dead; or null. */
  private volatile java.util.function.Consumer<String> declaredDead;
  /** Rejoin's hook for the partitions whose epoch moved (docs/cluster.md, "Rejoin"), or null. */
  private volatile ClusterRejoin rejoin;
  /** Leader rebalancing (docs/cluster.md, "Leader rebalancing"), or null: leaders stay where failovers put them. */
  private volatile LeaderRebalance rebalance;
  /** What the current map change does once the database follows the new map (follower thread). */
  private final java.util.List<Runnable> afterMap = new java.util.ArrayList<>();

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

  /** From now on leaders are rebalanced by {@code hook} once the cluster is whole (before {@link #start}). */
  void withRebalance(LeaderRebalance hook) {
    rebalance = hook;
  }

  /**
   * From now on {@code hook} is told, once and on the follower's thread, when
   * this host reads its own incarnation declared dead in the metadata (it
   * reached the metadata group again): it must not block (before {@link
   * #start}).
   */
  void whenDeclaredDead(java.util.function.Consumer<String> hook) {
    declaredDead = hook;
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
      if (self != null && self.getIncarnation() != member.incarnation()) {
        gone = true;
        selfStop("the metadata group registered incarnation " + self.getIncarnation() + " of this host id, not "
            + "this process's " + member.incarnation() + " (another process started with this --host-id)");
      } else if (self != null && self.getState() == HostState.HOST_STATE_DEAD) {
        final String why = "the metadata group declared this host's incarnation " + member.incarnation() + " dead";
        gone = true;
        selfStop(why);
        tellDeclaredDead(why);
      }
      if (!state.hasMap()) {
        return;
      }
      final PartitionMap next = ClusterMember.mapOf(state);
      if (next.version() <= current.version()) {
        return;
      }
      afterMap.clear();
      if (stopped == null) {
        for (int p = 0; p < next.partitionCount(); p++) {
          change(p, current.replicas(p), next.replicas(p));
        }
      }
      database.followMap(next);
      current = next;
      afterMap.forEach(Runnable::run);
      afterMap.clear();
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
      database.leftCopy(p);
      return;
    }
    if (next.replicaHosts().size() > 1) {
      changeKeepingCopies(p, old, next);
      return;
    }
    if (next.leaderHost() == self) {
      final long start = System.nanoTime();
      final boolean led = old.leaderHost() == self;
      database.lead(p, next.epoch(), replication.keepAlone(p, next.epoch()));
      LOG.warning("cluster: failover: this host (" + self + ") " + (led ? "keeps leading" : "now leads")
          + " partition " + p + " in epoch " + next.epoch() + " as its only copy (was led by host "
          + old.leaderHost() + " on hosts " + old.replicaHosts() + "); switched in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
  }

  /**
   * Partition {@code p} keeps several copies in {@code next}, this host's
   * among them (K ≥ 2; docs/cluster.md, "Repair among survivors").
   */
  private void changeKeepingCopies(int p, PartitionMap.Replicas old, PartitionMap.Replicas next) {
    final int self = member.hostId();
    final java.util.List<Integer> others = next.replicaHosts().stream().filter(h -> h != self).toList();
    final long start = System.nanoTime();
    if (old.leaderHost() == self && next.leaderHost() != self) {
      stepDown(p, old, next);
      return;
    }
    if (next.leaderHost() == self && replication.leadsIn(p, old.epoch())) {
      database.lead(p, next.epoch(), replication.keepLeading(p, next.epoch(), others));
      LOG.warning("cluster: partition " + p + ": this host (" + self + ") keeps leading it in epoch " + next.epoch()
          + " with copies on hosts " + next.replicaHosts() + " (was " + old.replicaHosts() + ")");
      return;
    }
    if (next.leaderHost() == self) {
      // Calls for it wait while it repairs, rather than bounce between this host and the ones naming it leader.
      database.expectLead(p);
      final org.partita.server.txn.CommitPipeline pipeline = replication.repairAndLead(p, next.epoch(), others,
          REPAIR_WAIT_MILLIS, () -> ClusterMember.mapOf(member.metadata()).replicas(p).epoch() == next.epoch());
      if (pipeline == null) {
        database.notLeading(p, "its repair with the other copies for epoch " + next.epoch() + " did not finish");
        LOG.severe("cluster: partition " + p + ": the repair among its survivors for epoch " + next.epoch()
            + " did not finish; its calls wait for the next epoch");
        dropSilentSurvivors(p, next);
        return;
      }
      database.lead(p, next.epoch(), pipeline);
      // A leader that stays a copy handed the partition over; otherwise its host died.
      final String change = next.replicaHosts().contains(old.leaderHost()) ? "hand-off" : "failover";
      LOG.warning("cluster: " + change + ": this host (" + self + ") now leads partition " + p + " in epoch "
          + next.epoch() + " with copies on hosts " + next.replicaHosts() + " (was led by host " + old.leaderHost()
          + " on hosts " + old.replicaHosts() + "); repaired and switched in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
      return;
    }
    final boolean followed = old.leaderHost() == next.leaderHost() ? replication.allowEpoch(p, next.epoch())
        : replication.followNewLeader(p, next.epoch(), next.leaderHost());
    if (!followed) {
      LOG.severe("cluster: partition " + p + " moved to epoch " + next.epoch() + " led by host " + next.leaderHost()
          + " with a copy on this host (" + self + "), which holds no replica copy of it to follow with");
    } else if (old.leaderHost() != next.leaderHost()) {
      LOG.warning("cluster: failover: this host (" + self + ") stays a copy of partition " + p + " in epoch "
          + next.epoch() + ", now led by host " + next.leaderHost() + " (was host " + old.leaderHost()
          + "); it offered its repair log and waits for the items it lacks");
    }
  }

  /**
   * Partition {@code p}, which this host led and still holds a copy of, is
   * led by another host in {@code next}: a hand-off this host made
   * ({@link LeaderRebalance}) leaves this copy a replica of the new leader;
   * anything else (not expected: only a rebalance moves a live leader) leaves
   * the copy out, as a deposed leader's, and it returns by rejoin.
   */
  private void stepDown(int p, PartitionMap.Replicas old, PartitionMap.Replicas next) {
    final LeaderRebalance hook = rebalance;
    if (hook != null && hook.stepDown(p, old, next, afterMap)) {
      LOG.warning("cluster: partition " + p + ": this host (" + member.hostId() + ") handed it over to host "
          + next.leaderHost() + " in epoch " + next.epoch() + " and stays a copy");
      return;
    }
    final String why = "the metadata group moved partition " + p + " to epoch " + next.epoch() + " led by host "
        + next.leaderHost() + " while this host led it, not by a hand-off this host made";
    LOG.severe("cluster: " + why + "; this copy leaves the partition and returns by rejoin");
    replication.leave(p, why);
    database.leftCopy(p);
  }

  /**
   * The repair of {@code p} for {@code next}'s epoch waited in vain for some
   * survivors' offers while the metadata kept that epoch: asks for the next
   * epoch without them (they come back by rejoin), whose repair then runs
   * with the survivors that offered. Follower thread.
   */
  private void dropSilentSurvivors(int p, PartitionMap.Replicas next) {
    if (ClusterMember.mapOf(member.metadata()).replicas(p).epoch() != next.epoch()) {
      return;
    }
    final java.util.List<Integer> rest = new java.util.ArrayList<>(replication.offered(p, next.epoch()));
    rest.add(0, member.hostId());
    try {
      final org.partita.proto.cluster.MetadataReply reply = member.changeLeader(p, next.epoch(), member.hostId(),
          rest);
      LOG.warning("cluster: partition " + p + ": asked the metadata group for an epoch without the survivors whose "
          + "repair offers did not come (copies on hosts " + rest + "): " + (reply.getApplied() ? "applied"
          : "refused: " + reply.getRefusal()));
    } catch (java.io.IOException e) {
      LOG.severe("cluster: partition " + p + ": could not ask the metadata group to drop silent survivors: "
          + e.getMessage());
    }
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
      // With K >= 2 several replicas may diverge on one item: each is dropped from the epoch current when its
      // turn comes (the first drop moved the epoch on), a refused compare-and-set read again and retried.
      for (int attempt = 0; attempt < DROP_ATTEMPTS && stopped == null; attempt++) {
        final PartitionMap.Replicas copies = ClusterMember.mapOf(member.metadata()).replicas(p);
        if (copies.leaderHost() != member.hostId() || !copies.replicaHosts().contains(replicaHost)) {
          return;
        }
        final java.util.List<Integer> rest = copies.replicaHosts().stream().filter(h -> h != replicaHost).toList();
        try {
          final org.partita.proto.cluster.MetadataReply reply = member.changeLeader(p, copies.epoch(),
              member.hostId(), rest);
          LOG.warning("cluster: partition " + p + ": asked the metadata group to drop replica host " + replicaHost
              + " (its write hash differed in epoch " + epoch + "): " + (reply.getApplied() ? "epoch "
              + (copies.epoch() + 1) + " on hosts " + rest : "refused: " + reply.getRefusal()));
          if (reply.getApplied()) {
            return;
          }
        } catch (java.io.IOException e) {
          LOG.severe("cluster: partition " + p + ": could not ask the metadata group to drop replica host "
              + replicaHost + ": " + e.getMessage());
        }
        java.util.concurrent.locks.LockSupport.parkNanos(DROP_RETRY_NANOS);
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

  /**
   * Self-stop when a majority of the voters has been unreachable for the
   * heartbeat timeout; once they are reachable again after such a stop,
   * asks for this incarnation's own {@code MarkDead} (at most once a second)
   * until the metadata shows it dead.
   */
  private void checkControlPlane() {
    final int majority = member.config().voterCount() / 2 + 1;
    final long now = System.nanoTime();
    final boolean reached = member.connectedVoters() >= majority;
    if (stopped != null) {
      if (stoppedCutOff && reached && !gone && now - lastSelfDeclareNanos > 1_000_000_000L) {
        lastSelfDeclareNanos = now;
        declareSelfDead();
      }
      return;
    }
    if (reached) {
      votersLostSince = -1;
      final LeaderRebalance hook = rebalance;
      if (hook != null) {
        hook.check(current, this::follow);
      }
      return;
    }
    if (votersLostSince < 0) {
      votersLostSince = now;
    } else if (now - votersLostSince > timeoutNanos) {
      stoppedCutOff = true;
      selfStop("this host reached fewer than " + majority + " of the " + member.config().voterCount()
          + " metadata voters for the heartbeat timeout (" + timeoutNanos / 1_000_000 + " ms)");
    }
  }

  private void declareSelfDead() {
    try {
      final org.partita.proto.cluster.MetadataReply reply = member.declareSelfDead();
      LOG.warning("cluster: this host (" + member.hostId() + ") reaches the metadata voters again after stopping "
          + "while cut off; asked the group to declare its incarnation " + member.incarnation() + " dead so it can "
          + "rejoin: " + (reply.getApplied() ? "done" : "refused: " + reply.getRefusal()));
    } catch (java.io.IOException | RuntimeException e) {
      LOG.warning("cluster: could not ask the metadata group to declare this host dead: " + e.getMessage());
    }
  }

  private void tellDeclaredDead(String why) {
    final java.util.function.Consumer<String> hook = declaredDead;
    if (declaredDeadTold || hook == null) {
      return;
    }
    declaredDeadTold = true;
    hook.accept(why);
  }

  private void selfStop(String why) {
    if (stopped != null) {
      return;
    }
    stopped = why;
    LOG.severe("cluster: this host (" + member.hostId() + ") stops serving: " + why + ". Its held answers fail as "
        + "OUTCOME_UNKNOWN and its partitions' calls are answered NOT_LEADER; it returns only by rejoin, as a "
        + "new incarnation (docs/cluster.md, \"Network partitions\")");
    replication.leaveAll(why);
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
