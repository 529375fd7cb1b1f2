package org.partita.server.host;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.cluster.LeaderBalance;
import org.partita.server.database.Database;
import org.partita.server.replication.Replication;
import org.partita.server.topology.PartitionMap;

/**
 * Leader rebalancing on one cluster host (docs/cluster.md, "Leader
 * rebalancing"): once the cluster is whole again (every host up, every
 * partition with its K+1 copies, no rejoin streaming here) and its map has
 * not changed for {@code --leader-rebalance-delay}, this host hands over the
 * partitions {@link LeaderBalance} moves away from it, one at a time. A
 * hand-off holds the partition's site between two items, waits until every
 * replica acknowledged everything it ran, and asks the metadata group for
 * the next epoch led by the chosen copy (a compare-and-set on the epoch);
 * this host then follows that map at once, stays a copy of the partition
 * ({@link #stepDown}) and lets the site go: the calls that waited are
 * answered NOT_LEADER under the new map, and clients send them to the new
 * leader, which took the partition as a failover's survivor does, with
 * nothing to repair.
 *
 * <p>Runs on the cluster follower's thread, which it blocks for one
 * hand-off at most a few seconds (every wait is bounded).
 */
final class LeaderRebalance {
  private static final Logger LOG = Logger.getLogger(LeaderRebalance.class.getName());
  /** How long a held site waits for its hand-off at most before it takes work again. */
  static final long HOLD_MAX_MILLIS = 5_000;
  /** How long the site may take to reach the hold (it finishes the item it runs, a multi-partition one included). */
  private static final long HOLD_WAIT_MILLIS = 2_000;
  /** How long every replica may take to acknowledge what the partition ran before the hold. */
  private static final long DRAIN_WAIT_MILLIS = 250;
  /** How long this host waits to see the map it asked for. */
  private static final long MAP_WAIT_MILLIS = 2_000;

  private final ClusterMember member;
  private final Database database;
  private final Replication replication;
  private final long delayNanos;
  // Follower thread only.
  private long mapVersion = -1;
  private long stableSince;
  /** The partition this host is handing over and the epoch it leads it in, or -1. */
  private int handingOver = -1;
  private long handingOverEpoch;

  /** @param delay how long the map must stay the same before leaders move (positive) */
  LeaderRebalance(ClusterMember member, Database database, Replication replication, Duration delay) {
    this.member = member;
    this.database = database;
    this.replication = replication;
    this.delayNanos = delay.toNanos();
  }

  /**
   * Looks whether this host should hand partitions over now, and does: call
   * on the follower's thread with the map it follows; {@code follow} makes
   * the follower follow a metadata state at once.
   */
  void check(PartitionMap current, Consumer<MetadataSnapshot> follow) {
    final long now = System.nanoTime();
    if (current.version() != mapVersion) {
      mapVersion = current.version();
      stableSince = now;
      return;
    }
    if (now - stableSince < delayNanos || !whole(member.metadata(), current)) {
      return;
    }
    for (LeaderBalance.Move move : LeaderBalance.plan(current, member.config().hostCount())) {
      if (move.from() == member.hostId()) {
        handOver(move, follow);
      }
    }
    // Whatever happened, look again only after another quiet delay.
    stableSince = System.nanoTime();
  }

  /** Every host up, every partition with K+1 copies, no rejoin stream or session on this host. */
  private boolean whole(MetadataSnapshot state, PartitionMap current) {
    for (HostRecord host : state.getHostsList()) {
      if (host.getState() != HostState.HOST_STATE_UP) {
        return false;
      }
    }
    final int copies = member.config().kFactor() + 1;
    for (int p = 0; p < current.partitionCount(); p++) {
      if (current.replicas(p).replicaHosts().size() != copies || replication.rejoins().stream(p) != null
          || replication.rejoins().session(p) != null) {
        return false;
      }
    }
    return state.getHostsCount() == member.config().hostCount();
  }

  /** Hands {@code move}'s partition over to its target host; logs what happened. */
  private void handOver(LeaderBalance.Move move, Consumer<MetadataSnapshot> follow) {
    final int p = move.partition();
    final PartitionMap.Replicas copies = ClusterMember.mapOf(member.metadata()).replicas(p);
    if (copies.leaderHost() != member.hostId() || !copies.replicaHosts().contains(move.to())) {
      return;
    }
    final long begun = System.nanoTime();
    final CompletableFuture<Void> release = new CompletableFuture<>();
    try {
      final String blocker = holdAndDrain(p, copies.epoch(), release);
      if (blocker != null) {
        LOG.info("cluster: leader rebalancing: partition " + p + " stays led by this host (" + member.hostId()
            + ") for now: " + blocker);
        return;
      }
      final long drained = System.nanoTime();
      handingOver = p;
      handingOverEpoch = copies.epoch();
      final MetadataReply reply = member.changeLeader(p, copies.epoch(), move.to(), copies.replicaHosts());
      if (!reply.getApplied()) {
        LOG.warning("cluster: leader rebalancing: the metadata group refused to move partition " + p + " to host "
            + move.to() + ": " + reply.getRefusal());
        return;
      }
      final long committed = System.nanoTime();
      final MetadataSnapshot moved = awaitEpoch(p, copies.epoch() + 1);
      if (moved != null) {
        follow.accept(moved);
      }
      LOG.warning("cluster: leader rebalancing: partition " + p + " handed over from this host (" + member.hostId()
          + ") to host " + move.to() + " in epoch " + (copies.epoch() + 1) + "; its site held for "
          + (System.nanoTime() - begun) / 1_000_000 + " ms (drained in " + (drained - begun) / 1_000_000
          + " ms, the metadata group's commit took " + (committed - drained) / 1_000_000 + " ms)");
    } catch (IOException e) {
      LOG.warning("cluster: leader rebalancing: could not ask the metadata group to move partition " + p + ": "
          + e.getMessage());
    } finally {
      handingOver = -1;
      release.complete(null);
    }
  }

  /**
   * Holds partition {@code p}'s site and waits until every replica
   * acknowledged everything it ran in {@code epoch}; null once that is so,
   * or why not (the site is released by the caller either way).
   */
  private String holdAndDrain(int p, long epoch, CompletableFuture<Void> release) {
    try {
      database.holdLedSite(p, release, HOLD_MAX_MILLIS).get(HOLD_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    } catch (ExecutionException | TimeoutException | IllegalArgumentException e) {
      return "its site did not pause within " + HOLD_WAIT_MILLIS + " ms (" + e + ")";
    }
    final long deadline = System.nanoTime() + DRAIN_WAIT_MILLIS * 1_000_000;
    while (true) {
      final String blocker = replication.handOffBlocker(p, epoch);
      if (blocker == null || System.nanoTime() > deadline) {
        return blocker;
      }
      LockSupport.parkNanos(100_000);
    }
  }

  /** The metadata once it shows partition {@code p} in {@code epoch} or later, or null after the bound. */
  private MetadataSnapshot awaitEpoch(int p, long epoch) {
    final long deadline = System.nanoTime() + MAP_WAIT_MILLIS * 1_000_000;
    while (System.nanoTime() < deadline) {
      final MetadataSnapshot state = member.metadata();
      if (state.hasMap() && ClusterMember.mapOf(state).replicas(p).epoch() >= epoch) {
        return state;
      }
      LockSupport.parkNanos(1_000_000);
    }
    return null;
  }

  /**
   * The follower met partition {@code p} moving from {@code old} to
   * {@code next}, led by this host before and by another after, with this
   * host still a copy. When this host handed it over and its pipeline holds
   * nothing, the pipeline's side is made a replica at once and
   * {@code afterMap} gets the database's side (which must come after the
   * database follows the new map, so the calls it refuses name the new
   * leader); returns false otherwise (the caller treats the copy as left).
   */
  boolean stepDown(int p, PartitionMap.Replicas old, PartitionMap.Replicas next, List<Runnable> afterMap) {
    if (handingOver != p || handingOverEpoch != old.epoch() || next.epoch() != old.epoch() + 1
        || replication.handOffBlocker(p, old.epoch()) != null) {
      return false;
    }
    afterMap.add(() -> {
      database.stepDown(p);
      if (!replication.stepDown(p, old.epoch(), next.epoch(), next.leaderHost())) {
        // Not expected: the site stayed held since the check above, so nothing could run in between.
        LOG.severe("cluster: partition " + p + ": this host's pipeline changed during its hand-off; its copy "
            + "follows no leader and returns by rejoin");
      }
    });
    return true;
  }
}
