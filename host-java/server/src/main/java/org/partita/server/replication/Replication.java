package org.partita.server.replication;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;
import org.partita.proto.cluster.RepairItems;
import org.partita.proto.cluster.RepairOffer;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.server.cluster.InternalConnector;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.ReplicaExecutor;

/**
 * The data plane of one cluster host with K ≥ 1 (docs/cluster.md, "Data
 * plane: replication of one partition"): a {@link LeaderPipeline} for every
 * partition it leads with replicas (its sites' commit pipelines), a
 * {@link ReplicaSequencer} for every copy it holds of a partition another
 * host leads, and one {@link PeerLink} to every host it shares a partition
 * with. Frames from peers come in through {@link #inboundHandler}, which the
 * internal port puts on each connection that carries them.
 *
 * <p>Made from the installed map before the database opens ({@link #pipeline}
 * gives the sites their pipelines), started once it has opened
 * ({@link #start}, with the database's replica copies as the executor).
 * Thread-safe; closed with the host.
 */
public final class Replication implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Replication.class.getName());

  private final int selfHost;
  private final PartitionMap map;
  private final Map<Integer, PeerLink> links = new java.util.concurrent.ConcurrentSkipListMap<>();
  private final LeaderPipeline[] leaders;
  private final ReplicaSequencer[] replicas;
  /** Per partition, the fenced copy of a survivor that leads next and has not finished its repair (or null). */
  private final ReplicaSequencer[] repairing;
  /** Per partition, the survivors' repair offers by host (the latest of each), until the repair is done. */
  private final Map<Integer, Map<Integer, RepairOffer>> offers = new ConcurrentHashMap<>();
  private final List<InetSocketAddress> internalAddresses;
  private final InternalConnector connector;
  private final EventLoopGroup group;
  /** The rejoin streams and sessions (docs/cluster.md, "Rejoin"); see {@link RejoinLinks}. */
  private final RejoinLinks rejoins = new RejoinLinks();
  private volatile ReplicaExecutor executor;
  private volatile boolean started;
  /** Told of every replica whose write hash differed from this host's as its leader. */
  private volatile Diverged divergedListener = (partition, epoch, host) -> { };
  /** What every pipeline this host leads through is wrapped in (its command log, docs/durability.md). */
  private volatile UnaryOperator<CommitPipeline> around = UnaryOperator.identity();

  /** A replica of a partition this host leads ran an item with another write hash (its copy stopped). */
  public interface Diverged {
    /** Called on the internal port's event loop under the pipeline's monitor: hand it on, never block. */
    void diverged(int partition, long epoch, int replicaHost);
  }

  /** From now on {@code listener} hears of every replica whose write hash differed (docs/cluster.md, "Hash mismatch"). */
  public void whenDiverged(Diverged listener) {
    divergedListener = listener;
  }

  /** How long a replica copy leaving its leader's order waits for room to queue what it received. */
  private static final long RETIRE_WAIT_MILLIS = 10_000;

  /**
   * @param internalAddresses every host's internal port, by host id
   * @param bindAddress this host's own address, which its connections leave from
   * @param group the internal port's event loop
   */
  public Replication(int selfHost, PartitionMap map, List<InetSocketAddress> internalAddresses,
      InetAddress bindAddress, EventLoopGroup group) {
    this(selfHost, map, internalAddresses, InternalConnector.plain(group, bindAddress), group);
  }

  /**
   * @param internalAddresses every host's internal port, by host id
   * @param connector how this host opens its connections to the others (its own address; TLS when secured)
   * @param group the internal port's event loop
   */
  public Replication(int selfHost, PartitionMap map, List<InetSocketAddress> internalAddresses,
      InternalConnector connector, EventLoopGroup group) {
    this.selfHost = selfHost;
    this.map = map;
    this.internalAddresses = List.copyOf(internalAddresses);
    this.connector = connector;
    this.group = group;
    this.leaders = new LeaderPipeline[map.partitionCount()];
    this.replicas = new ReplicaSequencer[map.partitionCount()];
    this.repairing = new ReplicaSequencer[map.partitionCount()];
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas copies = map.replicas(p);
      if (!copies.replicaHosts().contains(selfHost)) {
        continue;
      }
      if (copies.replicaHosts().size() < 2) {
        if (copies.leaderHost() == selfHost) {
          // Its only copy (K >= 1: a whole-cluster recovery left the others out, and the rejoin plan streams them
          // back): led alone, as after a failover, so that a rejoin stream can take its items (openStream).
          leaders[p] = aloneLeader(p, copies.epoch());
        }
        continue;
      }
      for (int host : copies.replicaHosts()) {
        if (host != selfHost) {
          links.computeIfAbsent(host, h -> new PeerLink(h, internalAddresses.get(h), connector, group));
        }
      }
      if (copies.leaderHost() == selfHost) {
        final List<Integer> others = copies.replicaHosts().stream().filter(h -> h != selfHost).toList();
        leaders[p] = new LeaderPipeline(p, copies.epoch(), selfHost, others, this::wake);
        final int partition = p;
        final long epoch = copies.epoch();
        leaders[p].whenDiverged(host -> divergedListener.diverged(partition, epoch, host));
        for (int host : others) {
          links.get(host).add(leaders[p]);
        }
      }
    }
  }

  /** The commit pipeline of {@code partition}'s site on this host (replication when it leads with replicas). */
  public CommitPipeline pipeline(int partition) {
    return around.apply(leaders[partition] != null ? leaders[partition] : ImmediateCommitPipeline.INSTANCE);
  }

  /**
   * From now on every pipeline this host's sites sequence behind, at
   * formation ({@link #pipeline}) and after a failover ({@link #keepAlone}),
   * is {@code wrap} applied to the replication pipeline: a host with a
   * command log logs every item it leads before its answer may leave
   * (docs/durability.md, "On a cluster"). Call before the database opens.
   */
  public void wrapPipelines(UnaryOperator<CommitPipeline> wrap) {
    around = wrap;
  }

  /**
   * Opens this host's copies of the partitions others lead to their leaders'
   * batches, run through {@code executor}, and connects to every peer.
   */
  public void start(ReplicaExecutor executor) {
    this.executor = executor;
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas copies = map.replicas(p);
      if (copies.leaderHost() != selfHost && copies.replicaHosts().contains(selfHost)) {
        replicas[p] = new ReplicaSequencer(p, copies.epoch(), selfHost, copies.leaderHost(), executor, this::wake);
        links.get(copies.leaderHost()).add(replicas[p]);
      }
    }
    started = true;
    links.values().forEach(PeerLink::start);
    LOG.info("replication: host " + selfHost + " leads " + count(leaders) + " replicated partition(s), holds "
        + count(replicas) + " replica(s), linked to host(s) " + links.keySet());
  }

  /** A new handler for the replication frames of one incoming internal connection. */
  public ChannelHandler inboundHandler() {
    return new ReplicationInbound(this, null);
  }

  /** This host's open copy of {@code partition} as a replica, or null. */
  synchronized ReplicaSequencer replica(int partition) {
    return started && partition >= 0 && partition < replicas.length ? replicas[partition] : null;
  }

  /** The pipeline of {@code partition} when this host leads it with replicas, else null. */
  synchronized LeaderPipeline leader(int partition) {
    return partition >= 0 && partition < leaders.length ? leaders[partition] : null;
  }

  /**
   * The pipeline an acknowledgement of {@code partition} in {@code epoch}
   * goes to: the current one, or the one it follows while that one still
   * waits for the old epoch's acknowledgements.
   */
  LeaderPipeline leader(int partition, long epoch) {
    final LeaderPipeline current = leader(partition);
    for (LeaderPipeline p = current; p != null; p = p.predecessor()) {
      if (p.epoch() == epoch) {
        return p;
      }
    }
    return current;
  }

  /**
   * Failover (docs/cluster.md, "Failure detection and failover"): the
   * metadata group left this host's copy of {@code partition} its only one,
   * in {@code epoch}. A pipeline it led releases its held answers and passes
   * what its site still releases straight through; a replica copy stops
   * following its old leader once every item it received is queued on its
   * site. Returns the pipeline the site sequences behind in {@code epoch}
   * (no replicas: answers leave at once, until {@link #leave}). Blocks (the
   * replica's queue): not on the event loop.
   */
  public CommitPipeline keepAlone(int partition, long epoch) {
    final LeaderPipeline led = leader(partition);
    if (led != null) {
      led.alone();
    }
    final ReplicaSequencer copy = takeReplica(partition);
    if (copy != null) {
      copy.retire(RETIRE_WAIT_MILLIS);
    }
    final ReplicaSequencer fenced = takeRepairing(partition);
    if (fenced != null) {
      fenced.retire(RETIRE_WAIT_MILLIS);
    }
    final LeaderPipeline alone = aloneLeader(partition, epoch);
    synchronized (this) {
      leaders[partition] = alone;
    }
    return around.apply(alone);
  }

  /** A pipeline for {@code partition} led by this host with no replica: its answers leave at once. */
  private LeaderPipeline aloneLeader(int partition, long epoch) {
    return new LeaderPipeline(partition, epoch, selfHost, List.of(), this::wake);
  }

  /** Removes and returns this host's fenced copy of {@code partition} waiting for its repair (null when none). */
  private synchronized ReplicaSequencer takeRepairing(int partition) {
    final ReplicaSequencer copy = repairing[partition];
    repairing[partition] = null;
    return copy;
  }

  /** True when this host sequences {@code partition} in {@code epoch} (not deposed). */
  public synchronized boolean leadsIn(int partition, long epoch) {
    final LeaderPipeline led = leaders[partition];
    return led != null && led.epoch() == epoch && led.deposed() == null;
  }

  /**
   * The metadata moved {@code partition}, which this host leads, to
   * {@code epoch} with {@code others} its other copies (a replica died or
   * diverged, or a host rejoined): the old epoch's pipeline stops waiting
   * for the replicas the new epoch dropped, and returns the new epoch's
   * pipeline, which sends nothing before the old one holds nothing more
   * (docs/cluster.md, "Repair among survivors"). Call {@code Database.lead}
   * with it.
   */
  public CommitPipeline keepLeading(int partition, long epoch, List<Integer> others) {
    final LeaderPipeline old = leader(partition);
    final LeaderPipeline next = successor(partition, epoch, others, old);
    for (LeaderPipeline p = old; p != null; p = p.predecessor()) {
      for (int host : p.replicaHosts()) {
        if (!others.contains(host)) {
          old.drop(host);
        }
      }
    }
    return around.apply(next);
  }

  /** A new pipeline for {@code epoch} following {@code old} (or null), installed as the partition's. */
  private LeaderPipeline successor(int partition, long epoch, List<Integer> others, LeaderPipeline old) {
    final LeaderPipeline next = new LeaderPipeline(partition, epoch, selfHost, others, this::wake);
    next.whenDiverged(host -> divergedListener.diverged(partition, epoch, host));
    if (old != null) {
      next.follow(old);
    }
    synchronized (this) {
      leaders[partition] = next;
    }
    for (int host : others) {
      link(host).add(next);
    }
    return next;
  }

  /**
   * Same leader, new epoch, this host still a replica: the copy enters
   * {@code epoch} at its first batch, once the old one is acknowledged to
   * its end. False when this host has no replica copy of the partition.
   */
  public boolean allowEpoch(int partition, long epoch) {
    final ReplicaSequencer copy = replica(partition);
    if (copy == null) {
      return false;
    }
    copy.allowEpoch(epoch);
    return true;
  }

  /**
   * Failover with several survivors, this host staying a replica: its copy
   * follows {@code leaderHost} in {@code epoch}, offering what it received
   * of the dead leader's order and waiting for the items it lacks
   * (docs/cluster.md, "Repair among survivors"). False when this host has no
   * replica copy of the partition.
   */
  public boolean followNewLeader(int partition, long epoch, int leaderHost) {
    final ReplicaSequencer copy = replica(partition);
    if (copy == null) {
      return false;
    }
    link(leaderHost).add(copy);
    copy.followLeader(leaderHost, epoch);
    return true;
  }

  /**
   * Why this host cannot hand {@code partition}, which it leads in
   * {@code epoch}, over to another copy now, or null when it can
   * ({@link LeaderPipeline#handOffBlocker}).
   */
  public String handOffBlocker(int partition, long epoch) {
    final LeaderPipeline led = leader(partition);
    if (led == null || led.epoch() != epoch) {
      return "this host does not lead it in epoch " + epoch;
    }
    return led.handOffBlocker();
  }

  /**
   * Leader hand-off, the old leader's side (docs/cluster.md, "Leader
   * rebalancing"): the metadata made {@code newLeader} the leader of
   * {@code partition} in {@code newEpoch}, and this host, which led it in
   * {@code oldEpoch} with nothing left unacknowledged, stays a copy. Its
   * pipeline is deposed (the site refuses new work with NOT_LEADER; nothing is
   * held, so no answer is failed) and a replica copy that holds the old
   * order as this host ran it follows the new leader. Returns false, changing
   * nothing, when the pipeline is not in that state ({@link #handOffBlocker}).
   * Any thread but the event loop.
   */
  public boolean stepDown(int partition, long oldEpoch, long newEpoch, int newLeader) {
    final LeaderPipeline led = leader(partition);
    if (led == null || led.epoch() != oldEpoch || led.handOffBlocker() != null) {
      return false;
    }
    final long last = led.last();
    led.depose("host " + newLeader + " leads it from epoch " + newEpoch + ": leadership handed over");
    final ReplicaSequencer copy = ReplicaSequencer.handedOver(partition, oldEpoch, last, selfHost, newLeader,
        newEpoch, executor, this::wake);
    synchronized (this) {
      replicas[partition] = copy;
    }
    link(newLeader).add(copy);
    wake(newLeader);
    return true;
  }

  /** A survivor's offer (the internal port's event loop): kept for the repair of its partition. */
  String offer(RepairOffer offer) {
    if (offer.getPartition() >= leaders.length) {
      return "a repair offer of partition " + offer.getPartition() + ", which does not exist";
    }
    offers.computeIfAbsent(offer.getPartition(), p -> new ConcurrentHashMap<>()).put(offer.getHostId(), offer);
    return null;
  }

  /** The new leader's repair items for this host's copy (the internal port's event loop). */
  String repair(RepairItems items) {
    final ReplicaSequencer copy = replica(items.getPartition());
    if (copy == null) {
      return "repair items of partition " + items.getPartition() + ", which this host holds no replica of";
    }
    return copy.repair(items);
  }

  /**
   * Failover with several survivors, this host the one that leads next
   * (docs/cluster.md, "Repair among survivors"): fences its copy, waits for
   * every other survivor's offer for {@code epoch}, takes the longest order
   * among them all (running the dead leader's items it lacks itself, each
   * checked against that leader's write hash), sends each survivor what it
   * lacks, and returns the new epoch's pipeline for {@code Database.lead}
   * (its site runs every repaired item before any new work). Returns null
   * when an offer did not come within {@code maxWaitMillis} or
   * {@code stillWanted} turned false (the metadata moved on: the copy stays
   * fenced, and the next epoch's repair starts from it). Blocks: the
   * follower's thread.
   */
  public CommitPipeline repairAndLead(int partition, long epoch, List<Integer> others, long maxWaitMillis,
      BooleanSupplier stillWanted) {
    final ReplicaSequencer copy;
    synchronized (this) {
      if (repairing[partition] == null) {
        repairing[partition] = replicas[partition];
        replicas[partition] = null;
      }
      copy = repairing[partition];
    }
    if (copy == null) {
      LOG.severe("partition " + partition + ": this host (" + selfHost + ") leads it in epoch " + epoch
          + " but holds no copy to repair from");
      return null;
    }
    final long begun = System.nanoTime();
    final RepairOffer own = copy.fence(epoch);
    final Map<Integer, RepairOffer> got = awaitOffers(partition, epoch, others, maxWaitMillis, stillWanted);
    if (got == null) {
      return null;
    }
    final RepairUnion union;
    try {
      union = RepairUnion.of(own, got.values());
    } catch (IllegalArgumentException e) {
      LOG.severe("partition " + partition + ": repair in epoch " + epoch + " failed: " + e.getMessage());
      return null;
    }
    final long through = union.through();
    final List<ReplicatedItem> lacking = union.after(own.getLastReceived());
    final String refusal = lacking == null ? "the survivors' items after " + own.getLastReceived() + " have gaps"
        : copy.supply(lacking);
    if (refusal != null) {
      LOG.severe("partition " + partition + ": repair in epoch " + epoch + " failed: " + refusal);
      return null;
    }
    copy.retire(RETIRE_WAIT_MILLIS);
    takeRepairing(partition);
    offers.remove(partition);
    final LeaderPipeline next = successor(partition, epoch, others, null);
    final StringBuilder sent = new StringBuilder();
    for (int host : others) {
      final long theirs = got.get(host).getLastReceived();
      final List<ReplicatedItem> after = union.after(theirs);
      if (after == null) {
        LOG.severe("partition " + partition + ": host " + host + " offered up to " + theirs + ", before what the "
            + "survivors hold; it gets nothing and stays out of the new epoch until the metadata drops it");
      }
      final List<ReplicatedItem> items = after == null ? List.of() : after;
      link(host).add(new RepairSender(host, RepairItems.newBuilder().setPartition(partition).setEpoch(epoch)
          .setLeaderHostId(selfHost).setOldEpoch(own.getOldEpoch()).setThrough(through).addAllItems(items).build(),
          next));
      wake(host);
      sent.append(sent.length() == 0 ? "" : ", ").append("host ").append(host).append(" had ").append(theirs)
          .append(" and gets ").append(items.size());
    }
    LOG.warning("partition " + partition + ": repair among the survivors for epoch " + epoch + ": the old order (epoch "
        + own.getOldEpoch() + ") ends at " + through + "; this copy had " + own.getLastReceived() + " and ran "
        + lacking.size() + " more; " + sent + " (" + (System.nanoTime() - begun) / 1_000_000 + " ms)");
    return around.apply(next);
  }

  /** The hosts whose repair offer for {@code partition} in {@code epoch} came. */
  public List<Integer> offered(int partition, long epoch) {
    return offers.getOrDefault(partition, Map.of()).values().stream().filter(o -> o.getEpoch() == epoch)
        .map(RepairOffer::getHostId).sorted().toList();
  }

  /** The other survivors' offers for {@code epoch}, or null when one did not come in time or the wait is over. */
  private Map<Integer, RepairOffer> awaitOffers(int partition, long epoch, List<Integer> others, long maxWaitMillis,
      BooleanSupplier stillWanted) {
    final long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
    while (true) {
      final Map<Integer, RepairOffer> byHost = offers.getOrDefault(partition, Map.of());
      final Map<Integer, RepairOffer> got = new TreeMap<>();
      for (int host : others) {
        final RepairOffer offer = byHost.get(host);
        if (offer != null && offer.getEpoch() == epoch) {
          got.put(host, offer);
        }
      }
      if (got.size() == others.size()) {
        return got;
      }
      if (!stillWanted.getAsBoolean() || System.nanoTime() > deadline) {
        LOG.warning("partition " + partition + ": repair for epoch " + epoch + " has offers from hosts "
            + got.keySet() + " of " + others + (stillWanted.getAsBoolean() ? " after " + maxWaitMillis + " ms"
            : " and the metadata moved on") + "; this copy waits for the next epoch");
        return null;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
  }

  /** Removes and returns this host's replica copy of {@code partition} (null when none). */
  private synchronized ReplicaSequencer takeReplica(int partition) {
    final ReplicaSequencer copy = replicas[partition];
    replicas[partition] = null;
    return copy;
  }

  /**
   * This host no longer holds {@code partition} in the metadata's map (or
   * stops serving): a pipeline it led fails its held answers as
   * OUTCOME_UNKNOWN and refuses new work with NOT_LEADER; a replica copy
   * refuses its old leader's batches. Any thread but the event loop.
   */
  public void leave(int partition, String why) {
    final LeaderPipeline led = leader(partition);
    if (led != null) {
      led.depose(why);
    }
    final ReplicaSequencer copy = takeReplica(partition);
    if (copy != null) {
      copy.retire(0);
    }
  }

  /** {@link #leave} for every partition this host holds: it stops serving (self-stop). */
  public void leaveAll(String why) {
    for (int p = 0; p < leaders.length; p++) {
      leave(p, why);
    }
  }

  /** The link to {@code host}, opened now if this host had none (a rejoin joins hosts the map did not pair). */
  private PeerLink link(int host) {
    final PeerLink link;
    final boolean opened;
    synchronized (this) {
      opened = !links.containsKey(host);
      link = links.computeIfAbsent(host, h -> new PeerLink(h, internalAddresses.get(h), connector, group));
    }
    if (opened && started) {
      link.start();
    }
    return link;
  }

  /** Wakes this host's link to a host (a rejoin stream's or session's frames are due). */
  public java.util.function.IntConsumer waker() {
    return this::wake;
  }

  /** The rejoin streams and sessions of this host. */
  public RejoinLinks rejoins() {
    return rejoins;
  }

  /**
   * Rejoin, the leader's side: from the cut on, {@code stream} gets every
   * item partition {@code stream.start().getPartition()} releases and goes to
   * its joining host. REQUIRES: on the partition's site thread, between two
   * items (the snapshot's cut).
   */
  public void openStream(RejoinStream stream) {
    final int partition = stream.start().getPartition();
    final LeaderPipeline led = leader(partition);
    if (led == null) {
      stream.end("this host no longer leads partition " + partition);
      return;
    }
    rejoins.put(stream);
    link(stream.joiner()).add(stream);
    led.tap(stream::forward);
    wake(stream.joiner());
  }

  /**
   * Rejoin, the joining host's side: a session for {@code partition} takes a
   * leader's stream, and a replica copy in the stream's epoch under that
   * leader waits (holding the next epoch's batches) until the metadata makes
   * it a required copy ({@link #handOver}).
   */
  public void openSession(RejoinSession session, long epoch, int leaderHost) {
    final int partition = session.partition();
    final ReplicaSequencer copy = new ReplicaSequencer(partition, epoch, selfHost, leaderHost, executor, this::wake);
    synchronized (this) {
      replicas[partition] = copy;
    }
    final PeerLink link = link(leaderHost);
    link.add(copy);
    if (rejoins.put(session)) {
      link.add(session);
    }
  }

  /**
   * Rejoin: the metadata added a host to {@code partition}, which this host
   * leads, in {@code epoch}, with {@code others} its copies besides this one;
   * returns the pipeline the site sequences behind from then on (the old
   * pipeline keeps what the site releases before it switches, so a rejoin
   * stream tapping it hears the old epoch to its end).
   */
  public CommitPipeline addReplica(int partition, long epoch, List<Integer> others) {
    return around.apply(successor(partition, epoch, others, leader(partition)));
  }

  /**
   * Rejoin, the joining host's side: the metadata made this host's copy of
   * {@code partition} a replica in {@code epoch}. Waits (at most
   * {@code maxWaitMillis}) until the rejoin session queued every item of the
   * old epoch on the copy, then lets the replica take the new epoch's
   * batches. Returns false when the session did not hand over in time (its
   * copy then stays out of order, and the leader holds the partition's
   * answers until the metadata drops this replica). Blocks: a thread of
   * its own, never the map follower's (another partition's hand-over may
   * wait for that follower).
   */
  public boolean handOver(int partition, long epoch, long maxWaitMillis) {
    final RejoinSession session = rejoins.session(partition);
    final long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
    while (session != null && !session.handedOver()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
    final ReplicaSequencer copy = replica(partition);
    if (copy == null) {
      return false;
    }
    copy.enterEpoch(epoch);
    return true;
  }

  /** Rejoin, the joining host's side: the partition moved without this host; the copy waits for a new stream. */
  public void abortRejoin(int partition, String why) {
    final RejoinSession session = rejoins.session(partition);
    if (session != null) {
      session.abort(why);
    }
    final ReplicaSequencer copy = takeReplica(partition);
    if (copy != null) {
      copy.retire(0);
    }
  }

  private void wake(int host) {
    final PeerLink link = links.get(host);
    if (link != null) {
      link.wake();
    }
  }

  private static int count(Object[] entries) {
    int n = 0;
    for (Object e : entries) {
      if (e != null) {
        n++;
      }
    }
    return n;
  }

  @Override
  public void close() {
    links.values().forEach(PeerLink::close);
  }
}
