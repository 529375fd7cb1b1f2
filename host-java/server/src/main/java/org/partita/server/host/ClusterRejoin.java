package org.partita.server.host;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.RejoinStart;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.cluster.RejoinPlan;
import org.partita.server.database.Database;
import org.partita.server.database.RejoinCut;
import org.partita.server.replication.RejoinSession;
import org.partita.server.replication.RejoinStream;
import org.partita.server.replication.Replication;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnHeader;

/**
 * Rejoin on one cluster host with K ≥ 1 (docs/cluster.md, "Rejoin"), both
 * sides. As a partition's leader: whenever the metadata's {@link RejoinPlan}
 * gives that partition to a joining host, it cuts a copy-on-write snapshot
 * of it and streams it, then every item after the cut ({@link RejoinStream});
 * once the joining copy is caught up it asks the metadata group for
 * {@code AddReplica}, and when the new epoch comes it sequences behind a new
 * pipeline with the new replica, the old epoch's last item marked on the
 * stream. A stream that ends early (a reconnection, a failure on the joining
 * host) starts again from a new snapshot. As a joining host: it makes a
 * {@link RejoinSession} for each partition a leader streams to it, and when
 * the metadata adds it, hands the copy over to the new epoch's replica; a
 * leader change aborts the session, and the new leader streams again.
 *
 * <p>Owns one thread for its checks (every {@value #CHECK_MILLIS} ms) and
 * for opening joining copies; the map changes come on the host's follower
 * thread ({@link #follow}).
 */
final class ClusterRejoin implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterRejoin.class.getName());
  static final long CHECK_MILLIS = 100;
  /** A joining copy this close to its leader's last item is caught up: AddReplica. */
  static final long CAUGHT_UP_ITEMS = 1_000;
  /** How long a joining host waits for the old epoch's last item once the metadata added it. */
  static final long HAND_OVER_MILLIS = 30_000;
  /** How long a leader waits after a stream ended before it starts another. */
  static final long RETRY_NANOS = 1_000_000_000L;

  private final ClusterMember member;
  private final Database database;
  private final Replication replication;
  private final int kFactor;
  private final int sitesPerHost;
  private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "partita-rejoin");
    t.setDaemon(true);
    return t;
  });
  private final ExecutorService opener = Executors.newSingleThreadExecutor(r -> {
    final Thread t = new Thread(r, "partita-rejoin-copies");
    t.setDaemon(true);
    return t;
  });
  private final JoiningHandOvers handOvers = new JoiningHandOvers();
  // Rejoin thread only: per partition this host leads, its stream's bookkeeping.
  private final Map<Integer, Streaming> streaming = new HashMap<>();
  // Rejoin thread only: the metadata the current plan was worked out from, and the plan (null: none).
  private MetadataSnapshot plannedFrom;
  private RejoinPlan plan;

  /** A stream this host began, and what it did. */
  private static final class Streaming {
    final long begun = System.nanoTime();
    volatile RejoinStream stream;
    volatile String refused;
    boolean addAsked;
    long endedAt;
  }

  ClusterRejoin(ClusterMember member, Database database, Replication replication, int kFactor,
      int sitesPerHost) {
    this.member = member;
    this.database = database;
    this.replication = replication;
    this.kFactor = kFactor;
    this.sitesPerHost = sitesPerHost;
  }

  void start() {
    replication.rejoins().acceptSessions(this::session);
    thread.scheduleWithFixedDelay(this::check, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
  }

  private RejoinSession session(int partition) {
    final RejoinCopy copy = new RejoinCopy(partition, database, replication, opener);
    final RejoinSession session = new RejoinSession(partition, member.hostId(), member.incarnation(), copy,
        database::offerReplicated, replication.waker());
    copy.of(session);
    return session;
  }

  /**
   * The follower's hook for each partition whose epoch moved: returns true
   * when the change is a rejoin's (handled here), false to let the follower
   * handle it. On the follower's thread, in map order.
   */
  boolean follow(int p, PartitionMap.Replicas old, PartitionMap.Replicas next) {
    final int self = member.hostId();
    if (old.leaderHost() == self && next.leaderHost() == self && added(old, next) != -1) {
      addedReplica(p, next, added(old, next));
      return true;
    }
    handOvers.await(p);
    if (!old.replicaHosts().contains(self) && next.replicaHosts().contains(self)
        && replication.rejoins().session(p) != null) {
      handOvers.start(p, () -> handOver(p, next));
      return true;
    }
    if (!next.replicaHosts().contains(self) && replication.rejoins().session(p) != null) {
      replication.abortRejoin(p, "partition " + p + " moved to epoch " + next.epoch() + " led by host "
          + next.leaderHost());
      database.leftCopy(p);
      return true;
    }
    final RejoinStream stream = replication.rejoins().stream(p);
    if (stream != null) {
      stream.end("partition " + p + " moved to epoch " + next.epoch() + " on hosts " + next.replicaHosts());
    }
    return false;
  }

  /**
   * The metadata made this host's joining copy of {@code p} a copy in
   * {@code next}'s epoch: it follows that epoch once the old epoch's last
   * items are queued on it, or gives up. On a thread of its own
   * ({@link JoiningHandOvers}): on the follower's thread, one partition's
   * wait held back another's entry into its epoch, a cycle broken only by
   * the 30 s bound (tests/fault/RESULTS.md).
   */
  private void handOver(int p, PartitionMap.Replicas next) {
    final boolean handed = replication.handOver(p, next.epoch(), HAND_OVER_MILLIS);
    replication.rejoins().removeSession(p);
    if (handed) {
      LOG.warning("rejoin: this host (" + member.hostId() + ") is a copy of partition " + p + " again, in epoch "
          + next.epoch() + " led by host " + next.leaderHost());
    } else {
      giveUp(p, next);
    }
  }

  /**
   * The metadata made this host a copy of {@code p} in {@code next}'s epoch, but
   * the old epoch's last items never came (the stream ended between
   * AddReplica and the switch): its copy cannot follow the new epoch, and
   * the leader holds the partition's answers for it. Asks the metadata
   * group for the next epoch without this host (as a leader drops a
   * diverged replica), so the answers flow again; the plan then streams the
   * partition to it once more. Its hand-over's thread.
   */
  private void giveUp(int p, PartitionMap.Replicas next) {
    final List<Integer> rest = next.replicaHosts().stream().filter(h -> h != member.hostId()).toList();
    replication.abortRejoin(p, "the old epoch's last items did not arrive within " + HAND_OVER_MILLIS + " ms");
    database.leftCopy(p);
    try {
      final MetadataReply reply = member.changeLeader(p, next.epoch(), next.leaderHost(), rest);
      LOG.severe("rejoin: partition " + p + ": the metadata added this host in epoch " + next.epoch() + " but the "
          + "old epoch's last items did not arrive within " + HAND_OVER_MILLIS + " ms; asked for an epoch without "
          + "it: " + (reply.getApplied() ? "applied" : "refused: " + reply.getRefusal()));
    } catch (IOException e) {
      LOG.severe("rejoin: partition " + p + ": could not ask the metadata group to drop this host's copy: "
          + e.getMessage());
    }
  }

  /** The host {@code next} adds to {@code old}'s copies with the same leader, or -1. */
  private static int added(PartitionMap.Replicas old, PartitionMap.Replicas next) {
    if (next.replicaHosts().size() != old.replicaHosts().size() + 1
        || !next.replicaHosts().containsAll(old.replicaHosts())) {
      return -1;
    }
    for (int h : next.replicaHosts()) {
      if (!old.replicaHosts().contains(h)) {
        return h;
      }
    }
    return -1;
  }

  /** This host leads {@code p}, and the metadata added {@code host} in {@code next}'s epoch. Follower thread. */
  private void addedReplica(int p, PartitionMap.Replicas next, int host) {
    final List<Integer> others = next.replicaHosts().stream().filter(h -> h != member.hostId()).toList();
    final RejoinStream stream = replication.rejoins().stream(p);
    // The old epoch ends on the stream in the switch's own site step: a multi-partition join queued after a
    // separate barrier would hold the site until its prepare, in the new epoch, was acknowledged by the joining
    // copy, which enters the new epoch only once the old one ended on the stream.
    database.lead(p, next.epoch(), replication.addReplica(p, next.epoch(), others), () -> {
      if (stream != null) {
        stream.endEpoch();
      }
    });
    LOG.warning("rejoin: partition " + p + " has host " + host + " as a copy again, in epoch " + next.epoch()
        + " (hosts " + next.replicaHosts() + ")");
  }

  /** Starts the streams the metadata's plan asks of this host, and moves the running ones on. Rejoin thread. */
  private void check() {
    try {
      final MetadataSnapshot state = member.metadata();
      if (state != plannedFrom) {
        // The plan is a function of the metadata alone: worked out again only when it changed.
        plan = RejoinPlan.next(state, kFactor, sitesPerHost);
        plannedFrom = state;
      }
      if (plan != null) {
        final PartitionMap map = ClusterMember.mapOf(state);
        for (int p : plan.partitions()) {
          if (map.leaderOf(p) == member.hostId()) {
            keepStreaming(p, plan, map.replicas(p).epoch());
          }
        }
      }
      for (Map.Entry<Integer, Streaming> e : streaming.entrySet()) {
        advance(e.getKey(), e.getValue(), state);
      }
    } catch (RuntimeException e) {
      LOG.severe("rejoin: check failed: " + e);
    }
  }

  private void keepStreaming(int p, RejoinPlan plan, long epoch) {
    final Streaming current = streaming.get(p);
    if (current != null) {
      final RejoinStream s = current.stream;
      final boolean live = current.refused == null && (s == null || s.ended() == null);
      final boolean same = s == null || s.start().getJoinerIncarnation() == plan.incarnation()
          && s.start().getEpoch() == epoch;
      if (live && same) {
        return;
      }
      if (s != null && s.ended() == null) {
        s.end("a newer plan: host " + plan.hostId() + " in epoch " + epoch);
      }
      noteEnded(p, current);
      if (System.nanoTime() - current.endedAt < RETRY_NANOS) {
        return;
      }
    }
    begin(p, plan.hostId(), plan.incarnation(), epoch);
  }

  private void begin(int p, int joiner, long incarnation, long epoch) {
    final Streaming started = new Streaming();
    streaming.put(p, started);
    final RejoinSnapshotSink sink = new RejoinSnapshotSink();
    LOG.info("rejoin: partition " + p + ": streaming a snapshot to host " + joiner + " (incarnation " + incarnation
        + ") in epoch " + epoch);
    database.beginRejoinSnapshot(p, sink, new RejoinCut() {
      @Override
      public void taken(long sequence, TxnHeader last, byte[] dedupTable) {
        final RejoinStart.Builder start = RejoinStart.newBuilder().setPartition(p).setEpoch(epoch)
            .setLeaderHostId(member.hostId()).setJoinerIncarnation(incarnation).setSnapshotSequence(sequence)
            .setDedupTable(com.google.protobuf.UnsafeByteOperations.unsafeWrap(dedupTable));
        if (last != null) {
          start.setCut(last.toProto());
        }
        final RejoinStream stream = new RejoinStream(joiner, start.build(), replication.waker());
        sink.streamTo(stream);
        started.stream = stream;
        replication.openStream(stream);
      }

      @Override
      public void refused(String why) {
        started.refused = why;
        LOG.warning("rejoin: partition " + p + ": no snapshot for host " + joiner + ": " + why + "; trying again");
      }
    });
  }

  /** Marks when {@code s} ended, once, saying why (a stream refused before it began has no stream). */
  private void noteEnded(int p, Streaming s) {
    if (s.endedAt != 0) {
      return;
    }
    s.endedAt = System.nanoTime();
    final RejoinStream stream = s.stream;
    if (stream != null) {
      LOG.warning("rejoin: partition " + p + ": the stream to host " + stream.joiner() + " ended: "
          + stream.ended());
      replication.rejoins().remove(stream);
    }
  }

  /** Asks for AddReplica once the joining copy caught up; reports the end. Rejoin thread. */
  private void advance(int p, Streaming s, MetadataSnapshot state) {
    final RejoinStream stream = s.stream;
    if (stream == null) {
      return;
    }
    if (stream.ended() != null) {
      noteEnded(p, s);
      return;
    }
    if (stream.drainedEpoch()) {
      LOG.warning("rejoin: partition " + p + ": host " + stream.joiner() + " rejoined in "
          + (System.nanoTime() - s.begun) / 1_000_000 + " ms (snapshot " + stream.bytesMade() + " bytes; longest"
          + " pause of this partition for a chunk " + stream.longestPauseNanos() / 1_000 + " us, "
          + stream.longestPauseCpuNanos() / 1_000 + " us of CPU)");
      stream.end("done");
      s.endedAt = System.nanoTime();
      replication.rejoins().remove(stream);
      return;
    }
    if (!s.addAsked && stream.caughtUp(CAUGHT_UP_ITEMS)) {
      s.addAsked = true;
      askAdd(p, stream);
    }
  }

  private void askAdd(int p, RejoinStream stream) {
    final RejoinStart start = stream.start();
    try {
      final MetadataReply reply = member.addReplica(p, start.getEpoch(), stream.joiner(),
          start.getJoinerIncarnation());
      LOG.warning("rejoin: partition " + p + ": host " + stream.joiner() + " caught up (" + stream.bytesMade()
          + " snapshot bytes, longest chunk pause " + stream.longestPauseNanos() / 1_000 + " us); AddReplica "
          + (reply.getApplied() ? "applied" : "refused: " + reply.getRefusal()));
      if (!reply.getApplied()) {
        stream.end("AddReplica refused: " + reply.getRefusal());
      }
    } catch (IOException e) {
      stream.end("could not ask the metadata group for AddReplica: " + e.getMessage());
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
    opener.shutdownNow();
  }
}
