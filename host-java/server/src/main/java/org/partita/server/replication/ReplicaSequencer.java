package org.partita.server.replication;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.logging.Logger;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RepairItems;
import org.partita.proto.cluster.RepairOffer;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.MalformedInvocationException;
import org.partita.server.txn.ReplicaExecutor;

/**
 * This host's copy of a partition another host leads, as the replication
 * layer sees it (docs/cluster.md, "Data plane"): takes the leader's batches,
 * fences them on the epoch (an older epoch is refused, a newer one waits
 * until the metadata shows it), runs each item in sequence order through
 * the {@link ReplicaExecutor}, compares its write hash with the leader's,
 * and acknowledges the items in order with its own hashes. Markers (reads,
 * items that changed nothing, transactions the leader aborted) are not run:
 * they are acknowledged in their place with hash 0.
 *
 * <p>Every item stays in the repair log until the leader's committed
 * sequence passes it. On failover {@link #retire} takes the copy out of its
 * leader's order when it leads next or leaves; a copy that stays a replica
 * under a new leader ({@link #followLeader}) offers the new leader its
 * repair log and runs the dead leader's items it lacks ({@link #repair})
 * before anything of the new epoch; the new leader's own copy is
 * {@link #fence}d and {@link #supply supplied} the same way (docs/cluster.md,
 * "Repair among survivors"). Under the same leader a new epoch is entered
 * once its first batch came and every item of the old one ran
 * ({@link #allowEpoch}: the leader sends nothing of the new epoch before
 * every replica acknowledged the old one). An item
 * sent again after a reconnection is not run twice: it is acknowledged
 * again from the log. A write hash other than the leader's stops this copy
 * at once: nothing after that item runs or is acknowledged, and the log
 * names the transaction, its procedure and invocation and both hashes.
 *
 * <p>Thread model: {@link #receive}, {@link #drain} and {@link #reconnected}
 * on the internal port's event loop; the executor's outcomes on the copy's
 * site thread; state guarded by this object's monitor. The executor and
 * {@code wake} must not block.
 */
public final class ReplicaSequencer implements OutboundSource {
  private static final Logger LOG = Logger.getLogger(ReplicaSequencer.class.getName());
  /** Batches of a newer epoch held at most, waiting for the metadata to show it; past it they are refused. */
  static final int MAX_HELD_BATCHES = 1024;
  /** Hashes in one acknowledgement frame at most. */
  static final int MAX_ACK_HASHES = 4096;
  /**
   * Items run but not yet acknowledged at most before the link is woken
   * while the copy still has items queued on its site (once it has run
   * everything it was given, it wakes the link at once).
   */
  static final int ACK_EVERY = 64;

  private final int partition;
  private final int selfHost;
  /** Changes only under the monitor ({@link #followLeader}); read outside it only to wake a link. */
  private volatile int leaderHost;
  private final ReplicaExecutor executor;
  private final IntConsumer wake;
  // Guarded by this.
  private long epoch;
  private final SequenceRing<Entry> log = new SequenceRing<>();
  private final List<ReplicationBatch> held = new ArrayList<>();
  private long lastReceived;
  private long submittedThrough;
  private long doneThrough;
  private long ackedThrough;
  private long committed;
  /** Failover moved this copy out of its leader's order ({@link #retire}). */
  private boolean retired;
  /** The highest epoch the metadata showed for this copy: batches up to it are taken, later ones held. */
  private long knownEpoch;
  /** The new leader's own copy during repair: takes no batch from anyone ({@link #fence}). */
  private boolean fenced;
  /** Under a new leader: waits for the dead leader's items it lacks ({@link #repair}) before the new epoch. */
  private boolean repairing;
  /** What this copy offers the new leader while it repairs (null otherwise), and whether this connection has it. */
  private RepairOffer offer;
  private boolean offerSent;
  /** The old epoch's items are not acknowledged (their leader died): from a leader change to the next epoch. */
  private boolean acksOff;
  /** The sequence whose hash differed or that could not run (0: this copy runs). */
  private long stoppedAt;
  private String stopReason;

  /**
   * @param epoch the partition's epoch as the metadata shows it now
   * @param wake asks the link to the leader's host to pull this copy's acknowledgements
   */
  public ReplicaSequencer(int partition, long epoch, int selfHost, int leaderHost, ReplicaExecutor executor,
      IntConsumer wake) {
    this.partition = partition;
    this.epoch = epoch;
    this.knownEpoch = epoch;
    this.selfHost = selfHost;
    this.leaderHost = leaderHost;
    this.executor = executor;
    this.wake = wake;
  }

  public int partition() {
    return partition;
  }

  /**
   * The copy a leader keeps when it hands its partition over (docs/cluster.md,
   * "Leader rebalancing"): this host led {@code partition} in {@code oldEpoch}
   * through sequence {@code last}, ran all of it and saw every replica
   * acknowledge all of it, and the metadata made {@code newLeader} the leader
   * in {@code newEpoch}. The copy offers that order to the new leader as a
   * surviving replica offers its repair log ({@link #followLeader}), and
   * enters the new epoch once the new leader's repair, which lacks nothing,
   * came.
   */
  public static ReplicaSequencer handedOver(int partition, long oldEpoch, long last, int selfHost, int newLeader,
      long newEpoch, ReplicaExecutor executor, IntConsumer wake) {
    final ReplicaSequencer copy = new ReplicaSequencer(partition, oldEpoch, selfHost, newLeader, executor, wake);
    synchronized (copy) {
      copy.lastReceived = last;
      copy.submittedThrough = last;
      copy.doneThrough = last;
      copy.ackedThrough = last;
      copy.committed = last;
    }
    copy.followLeader(newLeader, newEpoch);
    return copy;
  }

  /**
   * Takes one batch from the leader. Returns null when it was taken, held
   * (newer epoch) or ignored (this copy stopped), or why it is refused: the
   * caller closes that connection (the leader connects again and sends what
   * this copy has not acknowledged).
   */
  public String receive(ReplicationBatch batch) {
    final String refusal;
    synchronized (this) {
      refusal = take(batch);
    }
    wake.accept(leaderHost);
    return refusal;
  }

  private String take(ReplicationBatch batch) {
    if (retired || fenced) {
      return "a batch of partition " + batch.getPartition() + " from host " + batch.getLeaderHostId() + ", but this"
          + " copy no longer follows that leader (a failover moved the partition)";
    }
    if (stoppedAt != 0) {
      return null;
    }
    if (batch.getPartition() != partition || batch.getLeaderHostId() != leaderHost) {
      return "a batch of partition " + batch.getPartition() + " from host " + batch.getLeaderHostId() + ", but this"
          + " copy is of partition " + partition + " led by host " + leaderHost;
    }
    if (batch.getEpoch() < epoch) {
      return "a batch of partition " + partition + " in epoch " + batch.getEpoch() + ", older than this copy's epoch "
          + epoch + ": its sender no longer leads it";
    }
    if (batch.getEpoch() > epoch) {
      if (held.size() >= MAX_HELD_BATCHES) {
        return "more than " + MAX_HELD_BATCHES + " batches of partition " + partition + " in epoch "
            + batch.getEpoch() + ", which this host has not seen yet or cannot enter yet (its epoch is " + epoch
            + ")";
      }
      held.add(batch);
      trySwitch();
      return null;
    }
    if (acksOff) {
      return "a batch of partition " + partition + " in epoch " + epoch + " from host " + leaderHost + ", which "
          + "leads it only from a later epoch";
    }
    trim(batch.getCommittedSequence());
    for (ReplicatedItem item : batch.getItemsList()) {
      final String refusal = append(item, batch.getEpoch());
      if (refusal != null) {
        return refusal;
      }
    }
    advanceDone();
    pump();
    return null;
  }

  private String append(ReplicatedItem replicated, long batchEpoch) {
    final WorkItem item = replicated.getItem();
    final long sequence = item.getHeader().getSequence();
    if (item.getHeader().getPartition() != partition || item.getHeader().getEpoch() != batchEpoch) {
      return "an item of partition " + item.getHeader().getPartition() + " epoch " + item.getHeader().getEpoch()
          + " in a batch of partition " + partition + " epoch " + batchEpoch;
    }
    if (sequence <= lastReceived) {
      // Sent again after a reconnection: acknowledge again what the log still holds.
      ackedThrough = Math.max(Math.min(ackedThrough, sequence - 1), log.isEmpty() ? lastReceived
          : log.firstSequence() - 1);
      return null;
    }
    if (sequence != lastReceived + 1) {
      return "partition " + partition + " sequence " + sequence + " after " + lastReceived + ": items are missing";
    }
    final Entry entry;
    switch (item.getKindCase()) {
      case SINGLE_PARTITION, MULTI_PARTITION_RUN, DECISION, SNAPSHOT_CUT ->
          entry = new Entry(sequence, replicated, false);
      case ABORTED, KIND_NOT_SET -> {
        if (replicated.getWriteHash() != 0) {
          return "a marker of partition " + partition + " sequence " + sequence + " with a write hash";
        }
        entry = new Entry(sequence, replicated, true);
      }
      default -> {
        return "a " + item.getKindCase() + " item of partition " + partition + " sequence " + sequence
            + ": only single-partition items, parts of multi-partition transactions, their decisions and snapshot"
            + " cut marks are replicated";
      }
    }
    log.add(sequence, entry);
    lastReceived = sequence;
    return null;
  }

  /** Drops from the repair log what the leader committed (every replica acknowledged). */
  private void trim(long committedSequence) {
    committed = Math.max(committed, committedSequence);
    while (!log.isEmpty() && log.firstSequence() <= Math.min(committed, ackedThrough)) {
      log.removeFirst();
    }
  }

  /** Gives the executor every received item not yet given, in order, as far as its queue takes them. */
  private void pump() {
    while (stoppedAt == 0 && submittedThrough < lastReceived) {
      final Entry entry = log.get(submittedThrough + 1);
      if (!entry.marker && !executor.offer(entry.item.getItem(), new Outcome(entry.sequence))) {
        return;
      }
      submittedThrough++;
    }
  }

  private void advanceDone() {
    while (doneThrough < lastReceived && (stoppedAt == 0 || doneThrough < stoppedAt)
        && log.get(doneThrough + 1).done()) {
      doneThrough++;
    }
  }

  private void ran(long sequence, long writeHash) {
    final boolean acknowledgeNow;
    synchronized (this) {
      if (!log.contains(sequence)) {
        return;
      }
      final Entry entry = log.get(sequence);
      entry.ownHash = writeHash;
      entry.ran = true;
      if (writeHash != entry.item.getWriteHash()) {
        stop(sequence, "it ran here with write hash " + Long.toHexString(writeHash) + " but on its leader (host "
            + leaderHost + ") with " + Long.toHexString(entry.item.getWriteHash()));
      }
      advanceDone();
      pump();
      trySwitch();
      acknowledgeNow = stoppedAt != 0 || doneThrough >= submittedThrough || doneThrough - ackedThrough >= ACK_EVERY;
    }
    // An item still queued on the site will wake the link when it runs: one wake-up per run of items.
    if (acknowledgeNow) {
      wake.accept(leaderHost);
    }
  }

  private void failed(long sequence, String reason) {
    synchronized (this) {
      if (log.contains(sequence)) {
        stop(sequence, "it could not run here: " + reason);
      }
    }
    // What ran before it is acknowledged (the items it held back were waiting for it).
    wake.accept(leaderHost);
  }

  /** Stops this copy at {@code sequence}. REQUIRES: holding the monitor. */
  private void stop(long sequence, String why) {
    if (stoppedAt != 0) {
      return;
    }
    stoppedAt = sequence;
    stopReason = "transaction (epoch " + epoch + ", sequence " + sequence + ") " + describe(log.get(sequence).item
        .getItem()) + ": " + why;
    LOG.severe("partition " + partition + ": this copy (host " + selfHost + ") stopped: " + stopReason
        + ". It runs and acknowledges nothing more; the leader holds the partition's answers until the metadata"
        + " group drops this replica (docs/cluster.md, milestone 4), and it comes back by rejoin");
  }

  /** "procedure Vote, invocation Vote[5551234, 3, 10]" for the logs; never throws. */
  static String describe(WorkItem item) {
    if (!item.hasSinglePartition()) {
      return "(a " + item.getKindCase() + " item)";
    }
    try {
      final Invocation invocation = Invocation.fromProto(item.getSinglePartition());
      return "procedure " + invocation.procedure() + ", invocation " + invocation.procedure()
          + Arrays.deepToString(invocation.parameters()) + " from client " + invocation.clientId() + " sequence "
          + invocation.clientSequence();
    } catch (MalformedInvocationException | RuntimeException e) {
      return "(an invocation that does not decode: " + e.getMessage() + ")";
    }
  }

  @Override
  public synchronized InternalFrame drain(int host) {
    // A retired copy answers nothing more: its old leader's host may be a new incarnation by now (rejoin).
    if (retired || fenced || host != leaderHost) {
      return null;
    }
    if (offer != null && !offerSent) {
      offerSent = true;
      return InternalFrame.newBuilder().setRepairOffer(offer).build();
    }
    if (acksOff || doneThrough <= ackedThrough) {
      return null;
    }
    final ReplicationAck.Builder ack = ReplicationAck.newBuilder().setPartition(partition).setEpoch(epoch)
        .setReplicaHostId(selfHost).setFirstSequence(ackedThrough + 1);
    while (ackedThrough < doneThrough && ack.getWriteHashesCount() < MAX_ACK_HASHES) {
      ackedThrough++;
      ack.addWriteHashes(log.get(ackedThrough).ownHash);
    }
    trim(committed);
    final InternalFrame frame = InternalFrame.newBuilder().setReplicationAck(ack).build();
    // The old epoch's last acknowledgement is out: a held batch of the next one may be taken now.
    trySwitch();
    return frame;
  }

  @Override
  public synchronized void reconnected(int host) {
    if (host == leaderHost && !log.isEmpty()) {
      ackedThrough = Math.min(ackedThrough, log.firstSequence() - 1);
    }
    if (host == leaderHost) {
      offerSent = false;
    }
  }

  /**
   * Same leader, new epoch (a replica died, a host rejoined, a diverged copy
   * was dropped): the metadata shows {@code newEpoch} for this copy. Its
   * leader sends nothing of the new epoch before every replica acknowledged
   * the old one, so this copy enters it at the new epoch's first batch once
   * every item it received ran; until then the old epoch's batches are
   * still taken. A copy still repairing under a new leader offers its repair
   * log for {@code newEpoch} instead (the new leader repairs in that one).
   */
  public void allowEpoch(long newEpoch) {
    synchronized (this) {
      if (newEpoch <= knownEpoch) {
        return;
      }
      knownEpoch = newEpoch;
      if (repairing) {
        offer = offer.toBuilder().setEpoch(newEpoch).build();
        offerSent = false;
      }
      trySwitch();
    }
    wake.accept(leaderHost);
  }

  /**
   * Failover, a survivor that stays a replica (docs/cluster.md, "Repair
   * among survivors"): the metadata moved the partition to {@code newEpoch}
   * led by {@code newLeader}, the old leader being dead. The old leader's
   * batches are refused from now on, nothing more of its order is
   * acknowledged, and this copy offers the new leader everything it received
   * and has not seen committed; the new epoch's batches wait until the new
   * leader sent the old items this copy lacks ({@link #repair}) and they ran.
   */
  public void followLeader(int newLeader, long newEpoch) {
    synchronized (this) {
      knownEpoch = Math.max(knownEpoch, newEpoch);
      held.clear();
      leaderHost = newLeader;
      repairing = true;
      acksOff = true;
      offer = offer(newEpoch);
      offerSent = false;
    }
    wake.accept(newLeader);
  }

  /**
   * Failover, the survivor that leads next: this copy takes no batch from
   * anyone and acknowledges nothing more; returns what it received and has
   * not seen committed, as the other survivors offer theirs, so the new
   * leader can take the longest order among them ({@link #supply}).
   */
  public synchronized RepairOffer fence(long newEpoch) {
    fenced = true;
    acksOff = true;
    held.clear();
    return offer(newEpoch);
  }

  /** Everything in the repair log, for {@code newEpoch}'s leader. REQUIRES: holding the monitor. */
  private RepairOffer offer(long newEpoch) {
    final RepairOffer.Builder out = RepairOffer.newBuilder().setPartition(partition).setEpoch(newEpoch)
        .setHostId(selfHost).setOldEpoch(epoch).setLastReceived(lastReceived);
    if (!log.isEmpty()) {
      for (long s = log.firstSequence(); s <= lastReceived; s++) {
        out.addItems(log.get(s).item);
      }
    }
    return out.build();
  }

  /**
   * Repair: the old leader's items after the last this copy received, in
   * order, from the copy that received the most ({@code items} may begin
   * earlier: what this copy has is skipped). They run and are checked
   * against the old leader's write hash like any item. Returns null, or why
   * they do not follow this copy's order.
   */
  public String supply(List<ReplicatedItem> items) {
    synchronized (this) {
      return supplied(items);
    }
  }

  private String supplied(List<ReplicatedItem> items) {
    for (ReplicatedItem item : items) {
      if (item.getItem().getHeader().getSequence() <= lastReceived) {
        continue;
      }
      final String refusal = append(item, epoch);
      if (refusal != null) {
        return "repair: " + refusal;
      }
    }
    advanceDone();
    pump();
    return null;
  }

  /**
   * The new leader's {@link RepairItems} for this copy (docs/cluster.md,
   * "Repair among survivors"): once they are in its order it may enter the
   * new epoch (after they ran). One for another epoch or leader, or a second
   * one, is ignored. Returns null, or why it is refused (the connection
   * closes; the new leader sends it again).
   */
  public String repair(RepairItems items) {
    synchronized (this) {
      if (!repairing || items.getLeaderHostId() != leaderHost || items.getEpoch() != knownEpoch
          || items.getOldEpoch() != epoch) {
        return null;
      }
      final String refusal = supplied(items.getItemsList());
      if (refusal != null) {
        return refusal;
      }
      if (lastReceived < items.getThrough()) {
        return "repair of partition " + partition + " through sequence " + items.getThrough() + " of epoch " + epoch
            + ", but its items end at " + lastReceived;
      }
      repairing = false;
      offer = null;
      LOG.info("partition " + partition + ": this copy (host " + selfHost + ") has the old leader's order through "
          + lastReceived + " of epoch " + epoch + " from its new leader, host " + leaderHost + "; it enters epoch "
          + knownEpoch + " once those items ran");
      trySwitch();
    }
    wake.accept(leaderHost);
    return null;
  }

  /**
   * Enters the earliest held epoch the metadata showed, once this copy may:
   * not repairing, not stopped, every received item run and acknowledged
   * (or, under a new leader, not to be acknowledged). REQUIRES: holding the
   * monitor.
   */
  private void trySwitch() {
    if (held.isEmpty() || repairing || fenced || retired || stoppedAt != 0 || doneThrough != lastReceived
        || !acksOff && ackedThrough != doneThrough) {
      return;
    }
    long next = Long.MAX_VALUE;
    for (ReplicationBatch batch : held) {
      if (batch.getEpoch() > epoch && batch.getEpoch() <= knownEpoch) {
        next = Math.min(next, batch.getEpoch());
      }
    }
    if (next != Long.MAX_VALUE) {
      switchTo(next);
    }
  }

  /** Enters {@code newEpoch}: the old epoch's log goes, the held batches of it are taken. REQUIRES: the monitor. */
  private void switchTo(long newEpoch) {
    epoch = newEpoch;
    log.clear();
    lastReceived = 0;
    submittedThrough = 0;
    doneThrough = 0;
    ackedThrough = 0;
    committed = 0;
    acksOff = false;
    final List<ReplicationBatch> waiting = new ArrayList<>(held);
    held.clear();
    for (ReplicationBatch batch : waiting) {
      if (batch.getEpoch() >= newEpoch) {
        take(batch);
      }
    }
  }

  /**
   * A rejoining copy becomes a replica in {@code newEpoch} (its session
   * queued every item of the old epoch on it): batches of older epochs are
   * refused from now on, and the held batches of this one are taken at once.
   */
  public void enterEpoch(long newEpoch) {
    synchronized (this) {
      if (newEpoch <= epoch) {
        return;
      }
      knownEpoch = Math.max(knownEpoch, newEpoch);
      switchTo(newEpoch);
    }
    wake.accept(leaderHost);
  }

  /**
   * Failover: this copy stops following its leader (it leads the partition
   * from now on, or no longer holds it). Every item already received is
   * given to the executor first, waiting for room in its queue at most
   * {@code maxWaitMillis}, so the copy's queue holds the whole old order it
   * received before whatever the caller queues next; batches are refused
   * from now on. Returns the last sequence given to the executor. Blocks:
   * not on the event loop or a site thread.
   */
  public long retire(long maxWaitMillis) {
    final long deadline = System.nanoTime() + maxWaitMillis * 1_000_000;
    while (true) {
      synchronized (this) {
        retired = true;
        held.clear();
        pump();
        if (stoppedAt != 0 || submittedThrough >= lastReceived || System.nanoTime() > deadline) {
          if (stoppedAt == 0 && submittedThrough < lastReceived) {
            LOG.warning("partition " + partition + ": " + (lastReceived - submittedThrough) + " received item(s) "
                + "were not run before this copy left its leader's order (its queue stayed full); none of them "
                + "was acknowledged, so none was answered");
          }
          final long given = submittedThrough;
          lastReceived = submittedThrough;
          return given;
        }
      }
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
  }

  /** True once {@link #retire} ran. */
  public synchronized boolean retired() {
    return retired;
  }

  /** The last sequence of the current epoch this copy ran or acknowledged as a marker. */
  public synchronized long doneThrough() {
    return doneThrough;
  }

  /** Why this copy stopped, or null while it runs. */
  public synchronized String stopReason() {
    return stopReason;
  }

  /** The epoch this copy is in. */
  public synchronized long epoch() {
    return epoch;
  }

  /** The last sequence of the current epoch received from the leader. */
  public synchronized long lastReceived() {
    return lastReceived;
  }

  /** True while this copy waits for its new leader's repair. */
  public synchronized boolean repairing() {
    return repairing;
  }

  /** Items in the repair log (received, not yet known committed). */
  public synchronized int repairLogSize() {
    return log.size();
  }

  /** One received item (also a rejoin session's). Guarded by its owner's monitor. */
  static final class Entry {
    final long sequence;
    final ReplicatedItem item;
    final boolean marker;
    boolean ran;
    long ownHash;

    Entry(long sequence, ReplicatedItem item, boolean marker) {
      this.sequence = sequence;
      this.item = item;
      this.marker = marker;
    }

    boolean done() {
      return marker || ran;
    }
  }

  /** The executor's outcome of one item, back to this sequencer. */
  private final class Outcome implements ReplicaExecutor.Done {
    private final long sequence;

    Outcome(long sequence) {
      this.sequence = sequence;
    }

    @Override
    public void ran(long writeHash) {
      ReplicaSequencer.this.ran(sequence, writeHash);
    }

    @Override
    public void failed(String reason) {
      ReplicaSequencer.this.failed(sequence, reason);
    }

    @Override
    public boolean cancelled() {
      synchronized (ReplicaSequencer.this) {
        return stoppedAt != 0;
      }
    }
  }
}
