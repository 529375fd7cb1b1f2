package org.partita.server.replication;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.server.error.ErrorTable;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The commit pipeline of a partition this host leads with replicas
 * (docs/cluster.md, "Data plane"): every item the site ran is kept, in
 * sequence order, with its answer and the leader's write hash, until every
 * replica of the epoch has acknowledged it with that hash; then its answer
 * is released and the committed sequence moves past it. Answers are released
 * in sequence order, so a read (sent as a marker) is answered only after
 * every write before it committed and every replica answered its marker in
 * this epoch.
 *
 * <p>What a replica receives is decided after the leader ran the item: an
 * item that changed the leader's copy travels whole with the leader's write
 * hash; a transaction the leader rolled back because of its time limit or a
 * cancel ({@link #aborted}) travels as an {@code aborted} item, and anything
 * else that changed nothing (reads, writes that wrote no row, rollbacks) as
 * a marker. Replicas run only the first kind, so a replica never runs a
 * transaction its leader did not keep and never needs to undo one.
 *
 * <p>A replica that does not answer holds every later answer: nothing is
 * dropped without a new epoch from the metadata group, after which the
 * host calls {@link #alone} (no replica left), {@link #drop} (the replicas
 * the new epoch no longer has) or {@link #depose} (this host no longer
 * leads). A pipeline of a later epoch under the same leader
 * ({@link #follow}) sends nothing before this one holds nothing more, so a
 * replica that stays enters the new epoch only once it acknowledged every
 * item of the old one. One that answers another write hash stops its copy and
 * is reported ({@link #whenDiverged}), and the partition's answers stay
 * held from that item on until that epoch comes.
 *
 * <p>Thread model: {@link #release}, {@link #aborted} and {@link #siteIdle} on
 * the partition's site thread; {@link #drain}, {@link #reconnected} and {@link #ack} on the
 * internal port's event loop; state guarded by this object's monitor.
 * Answers run outside it, on whichever thread completed them.
 */
public final class LeaderPipeline implements CommitPipeline, OutboundSource {
  private static final Logger LOG = Logger.getLogger(LeaderPipeline.class.getName());
  /** Items in one batch frame at most. */
  static final int MAX_BATCH_ITEMS = 1024;
  /** Bytes of items in one batch frame at most (the internal port's frame bound is 16 MiB). */
  static final int MAX_BATCH_BYTES = 4 << 20;
  /**
   * Items released at most before the links are woken even though the site
   * has more queued: a site that never runs dry still sends in batches of
   * this many, and an item waits behind at most this many executions.
   */
  static final int WAKE_EVERY = 64;

  private final int partition;
  private final long epoch;
  private final int leaderHost;
  private final int[] replicas;
  private final IntConsumer wake;
  /** Site-confined: the sequence the site reported aborted last (0: none). */
  private long abortedSequence;
  /** Site-confined: items released since the links were last woken. */
  private int unwoken;
  // Guarded by this.
  private final SequenceRing<Pending> pending = new SequenceRing<>();
  private long committed;
  private long last;
  private final long[] acked;
  private final long[] sent;
  private final boolean[] diverged;
  /** Replicas the metadata dropped in a later epoch: no longer waited for. */
  private final boolean[] dropped;
  /** The same leader's pipeline of the previous epoch, which must hold nothing before this one sends; or null. */
  private volatile LeaderPipeline predecessor;
  /** Told (outside the monitor) when this pipeline no longer holds anything after an acknowledgement or a drop. */
  private volatile Runnable emptied = () -> { };
  /** Failover left no other copy: answers leave at once. */
  private boolean alone;
  /** Why this host no longer leads the partition, or null while it does. */
  private volatile String deposed;
  /** Hears every item released from now on, in order (a rejoin stream's items after its snapshot); or null. */
  private volatile Consumer<ReplicatedItem> tap;
  /** Told the host id of a replica whose write hash differed (under the monitor: it must only hand it on). */
  private volatile IntConsumer divergedListener = host -> { };

  /**
   * @param replicas the host ids of the partition's other copies in {@code epoch}
   * @param wake asks the link to a host to pull what this pipeline has for it
   */
  public LeaderPipeline(int partition, long epoch, int leaderHost, List<Integer> replicas, IntConsumer wake) {
    this.partition = partition;
    this.epoch = epoch;
    this.leaderHost = leaderHost;
    this.replicas = replicas.stream().mapToInt(Integer::intValue).toArray();
    this.wake = wake;
    this.acked = new long[this.replicas.length];
    this.sent = new long[this.replicas.length];
    this.diverged = new boolean[this.replicas.length];
    this.dropped = new boolean[this.replicas.length];
  }

  /**
   * This pipeline follows {@code previous}, the same leader's pipeline of the
   * previous epoch: nothing of this epoch is sent while {@code previous}
   * still holds items (its replicas must acknowledge the old epoch to its
   * end before they enter the new one), and its emptying wakes this one's
   * links. Call before the site releases anything here.
   */
  public void follow(LeaderPipeline previous) {
    predecessor = previous;
    previous.emptied = () -> {
      for (int host : replicas) {
        wake.accept(host);
      }
    };
    if (!previous.holding()) {
      previous.emptied.run();
    }
  }

  /**
   * Why this pipeline cannot hand its partition over to another copy now
   * (docs/cluster.md, "Leader rebalancing"), or null when it can: it leads
   * with replicas, released at least one item in its epoch (so every
   * replica entered it), and every replica acknowledged every item it and
   * the pipelines it follows released.
   */
  public String handOffBlocker() {
    final LeaderPipeline previous = predecessor;
    if (previous != null && previous.holding()) {
      return "the previous epoch " + previous.epoch + " still waits for acknowledgements";
    }
    synchronized (this) {
      if (deposed != null || alone) {
        return deposed != null ? "this host no longer leads it" : "it has no other copy";
      }
      if (last == 0) {
        return "no item has run in epoch " + epoch + " yet";
      }
      return pending.isEmpty() ? null : pending.size() + " item(s) wait for acknowledgements";
    }
  }

  /** True while items wait here for acknowledgements (not alone, not deposed). */
  public synchronized boolean holding() {
    return !pending.isEmpty() && !alone && deposed == null;
  }

  /**
   * The metadata moved the partition to a later epoch without {@code host}
   * (it died, or its copy diverged), this host still leading: what waited
   * only for that replica is released, in order (in the earlier epochs this
   * pipeline follows first); the others are still waited for. Any thread.
   */
  public void drop(int host) {
    final LeaderPipeline previous = predecessor;
    if (previous != null) {
      previous.drop(host);
    }
    final List<Runnable> ready;
    final boolean empty;
    synchronized (this) {
      final int r = indexOf(host);
      if (r < 0 || dropped[r]) {
        return;
      }
      dropped[r] = true;
      acked[r] = Long.MAX_VALUE;
      ready = alone || deposed != null ? List.of() : releasable();
      empty = pending.isEmpty();
    }
    ready.forEach(Runnable::run);
    if (empty) {
      emptied.run();
    }
  }

  /**
   * Whether this pipeline still replicates to {@code host}: a replica of its
   * epoch that the metadata has not dropped, while this host still leads.
   */
  public synchronized boolean replicatesTo(int host) {
    final int r = indexOf(host);
    return r >= 0 && !dropped[r] && deposed == null;
  }

  /** The last sequence {@code host} acknowledged with this leader's hash (0: none, or not a replica here). */
  public synchronized long acknowledged(int host) {
    final int r = indexOf(host);
    return r < 0 || dropped[r] ? 0 : acked[r];
  }

  public int partition() {
    return partition;
  }

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {
    // Nothing leaves before the item ran: what a replica gets depends on how it ended.
  }

  @Override
  public void aborted(TxnHeader header) {
    abortedSequence = header.id().sequence();
  }

  @Override
  public boolean replicatesWork() {
    return true;
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    throw new IllegalStateException("partition " + partition + " is replicated and " + header.id() + " came without"
        + " its write hash (a schema change, which does not run across hosts yet)");
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
    hold(header, item, writeHash, answer, null);
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, long writeHash, ClientResponse response,
      Consumer<ClientResponse> done) {
    hold(header, item, writeHash, () -> done.accept(response), done);
  }

  /**
   * The prepare step: the part travels whole whatever its hash (a replica holds it until the decision);
   * {@code prepared} runs once every replica acknowledged it with this hash, {@code lost} if deposed first.
   */
  @Override
  public void prepare(TxnHeader header, SequencedItem part, long writeHash, Runnable prepared,
      Consumer<ClientResponse> lost) {
    hold(header, part, writeHash, true, prepared, lost);
  }

  /** The decision on the part prepared just before: travels whole (a roll back too, hash 0). */
  @Override
  public void decide(TxnHeader header, SequencedItem decision, long writeHash, Runnable answer) {
    hold(header, decision, writeHash, true, answer, null);
  }

  @Override
  public void cutSnapshot(TxnHeader header, SequencedItem mark, Runnable answer) {
    hold(header, mark, 0, true, answer, null);
  }

  private void hold(TxnHeader header, SequencedItem item, long writeHash, Runnable answer,
      Consumer<ClientResponse> done) {
    hold(header, item, writeHash, false, answer, done);
  }

  /**
   * Keeps the item until every replica acknowledged it; {@code done} (or null) hears OUTCOME_UNKNOWN if deposed.
   * {@code whole}: the item travels as itself even when it changed nothing (a prepared part, a decision).
   */
  private void hold(TxnHeader header, SequencedItem item, long writeHash, boolean whole, Runnable answer,
      Consumer<ClientResponse> done) {
    final byte[] replicated = whole ? ReplicatedItemBytes.of(item.toProto(header), writeHash)
        : replicatedItem(header, item, writeHash);
    final Consumer<ReplicatedItem> listener = tap;
    if (listener != null) {
      listener.accept(ReplicatedItemBytes.parse(replicated));
    }
    final List<Runnable> ready;
    synchronized (this) {
      final long sequence = header.id().sequence();
      if (deposed != null) {
        ready = List.of(unknown(done, answer));
      } else if (alone) {
        ready = List.of(answer);
      } else {
        if (header.id().epoch() != epoch || sequence != last + 1) {
          throw new IllegalStateException("partition " + partition + " (epoch " + epoch + ", last " + last
              + ") released " + header.id() + " out of order");
        }
        // What the replicas must answer: the leader's hash for what travels whole, 0 for a marker.
        final long replicatedHash = whole || abortedSequence != sequence ? writeHash : 0;
        pending.add(sequence, new Pending(sequence, replicated, replicatedHash, answer, done));
        last = sequence;
        ready = releasable();
      }
    }
    ready.forEach(Runnable::run);
    if (++unwoken >= WAKE_EVERY) {
      siteIdle();
    }
  }

  /**
   * The site ran what it had queued: wakes the link to every replica, which
   * pulls every item released since in one frame. Items released while the
   * site has more queued wait for this (or for {@link #WAKE_EVERY} of them),
   * so a busy site wakes each link once per run of items, not once per item.
   */
  @Override
  public void siteIdle() {
    if (unwoken == 0) {
      return;
    }
    unwoken = 0;
    for (int host : replicas) {
      wake.accept(host);
    }
  }

  /**
   * The item's bytes for its replicas, written here on the site: a
   * single-partition call straight from its invocation's bytes, a marker
   * from its header alone.
   */
  private byte[] replicatedItem(TxnHeader header, SequencedItem item, long writeHash) {
    if (abortedSequence == header.id().sequence()) {
      return ReplicatedItemBytes.marker(header, true);
    }
    if (writeHash == 0) {
      return ReplicatedItemBytes.marker(header, false);
    }
    final Invocation call = item.singlePartitionInvocation();
    return call != null ? ReplicatedItemBytes.singlePartition(header, call, writeHash)
        : ReplicatedItemBytes.of(item.toProto(header), writeHash);
  }

  /** {@link #nextFrame} as protobuf objects (tests). */
  @Override
  public InternalFrame drain(int host) {
    final BatchFrame batch = nextFrame(host);
    return batch == null ? null : batch.toFrame();
  }

  /** The next batch for {@code host}, written from the items' bytes as they are kept; marked as sent. */
  @Override
  public synchronized BatchFrame nextFrame(int host) {
    final int r = indexOf(host);
    if (r < 0 || alone || deposed != null || dropped[r]) {
      return null;
    }
    final LeaderPipeline previous = predecessor;
    if (previous != null && previous.holding()) {
      return null;
    }
    if (previous != null && last > 0) {
      // The site switched to this epoch and the old one holds nothing more: it is over.
      predecessor = null;
    }
    // An acknowledgement can overtake what this connection sent (it came on the replica's own connection).
    final long from = Math.max(sent[r], acked[r]) + 1;
    if (from > last) {
      return null;
    }
    final byte[][] items = new byte[(int) Math.min(last - from + 1, MAX_BATCH_ITEMS)][];
    int count = 0;
    int bytes = 0;
    for (long next = from; next <= last && count < items.length && bytes < MAX_BATCH_BYTES; next++) {
      items[count] = pending.get(next).item();
      bytes += items[count].length;
      count++;
    }
    sent[r] = from + count - 1;
    return new BatchFrame(partition, epoch, leaderHost, committed,
        count == items.length ? items : Arrays.copyOf(items, count));
  }

  @Override
  public synchronized void reconnected(int host) {
    final int r = indexOf(host);
    if (r >= 0) {
      sent[r] = acked[r];
    }
  }

  /**
   * Takes a replica's acknowledgement. Returns null, or why it is refused
   * (another epoch, an unknown replica, a gap, an item never sent): the
   * caller closes that connection. Acknowledgements already taken are
   * skipped (a replica acknowledges again after a reconnection).
   */
  public String ack(ReplicationAck ack) {
    final List<Runnable> ready;
    final boolean empty;
    synchronized (this) {
      final String refusal = takeAck(ack);
      if (refusal != null) {
        return refusal;
      }
      ready = releasable();
      empty = !ready.isEmpty() && pending.isEmpty();
    }
    ready.forEach(Runnable::run);
    if (empty) {
      emptied.run();
    }
    return null;
  }

  private String takeAck(ReplicationAck ack) {
    if (ack.getEpoch() != epoch) {
      return "an acknowledgement of partition " + partition + " in epoch " + ack.getEpoch() + ", but this leader is"
          + " in epoch " + epoch;
    }
    final int r = indexOf(ack.getReplicaHostId());
    if (r < 0) {
      return "an acknowledgement of partition " + partition + " from host " + ack.getReplicaHostId()
          + ", which holds no copy of it in epoch " + epoch;
    }
    if (diverged[r] || dropped[r] || alone || deposed != null) {
      return null;
    }
    for (int i = 0; i < ack.getWriteHashesCount(); i++) {
      final long sequence = ack.getFirstSequence() + i;
      if (sequence <= acked[r]) {
        continue;
      }
      if (sequence != acked[r] + 1 || sequence > last) {
        return "an acknowledgement of partition " + partition + " sequence " + sequence + " from host "
            + replicas[r] + ", which had acknowledged up to " + acked[r] + " of " + last + " sent";
      }
      final Pending item = pending.get(sequence);
      final long theirs = ack.getWriteHashes(i);
      if (theirs != item.writeHash()) {
        diverge(r, item, theirs);
        return null;
      }
      acked[r] = sequence;
    }
    return null;
  }

  /**
   * Tells {@code onDiverged} the host id of each replica whose write hash
   * differs from now on, so the host can ask the metadata group to drop it
   * (docs/cluster.md, "Hash mismatch"). It runs on the event loop under this
   * pipeline's monitor: it must only hand the id on.
   */
  public void whenDiverged(IntConsumer onDiverged) {
    divergedListener = onDiverged;
  }

  /**
   * From now on {@code listener} (null: none) hears every item this pipeline
   * is given to release, in sequence order, on the site thread (a rejoin
   * stream: docs/cluster.md, "Rejoin"). REQUIRES: on the site thread,
   * between two items, so the listener hears exactly the items after it.
   */
  public void tap(Consumer<ReplicatedItem> listener) {
    tap = listener;
  }

  /** The same leader's pipeline of the previous epoch this one follows, or null. */
  LeaderPipeline predecessor() {
    return predecessor;
  }

  /** The host ids of the replicas of this pipeline's epoch. */
  public List<Integer> replicaHosts() {
    return Arrays.stream(replicas).boxed().toList();
  }

  /** The epoch this pipeline sequences in. */
  public long epoch() {
    return epoch;
  }

  private void diverge(int r, Pending item, long theirs) {
    diverged[r] = true;
    divergedListener.accept(replicas[r]);
    LOG.severe("partition " + partition + ": replica host " + replicas[r] + " ran transaction (epoch " + epoch
        + ", sequence " + item.sequence() + ") with write hash " + Long.toHexString(theirs) + " but this leader's"
        + " is " + Long.toHexString(item.writeHash()) + " ("
        + ReplicaSequencer.describe(ReplicatedItemBytes.parse(item.item()).getItem()) + "); that copy stopped, and"
        + " this partition's answers are held from this transaction on until the metadata group drops the replica"
        + " (docs/cluster.md, milestone 4)");
  }

  /** Pops every item every replica has acknowledged; returns their answers. REQUIRES: holding the monitor. */
  private List<Runnable> releasable() {
    long through = last;
    for (long a : acked) {
      through = Math.min(through, a);
    }
    if (through <= committed) {
      return List.of();
    }
    final List<Runnable> ready = new ArrayList<>((int) (through - committed));
    while (committed < through) {
      ready.add(pending.removeFirst().answer());
      committed++;
    }
    return ready;
  }

  private int indexOf(int host) {
    for (int r = 0; r < replicas.length; r++) {
      if (replicas[r] == host) {
        return r;
      }
    }
    return -1;
  }

  /** The highest sequence every replica acknowledged (its answer released). */
  public synchronized long committed() {
    return committed;
  }

  /** The highest sequence released by the site (run here). */
  public synchronized long last() {
    return last;
  }

  /** The replicas whose write hash differed from this leader's (their copies stopped). */
  public synchronized List<Integer> diverged() {
    final List<Integer> out = new ArrayList<>();
    for (int r = 0; r < replicas.length; r++) {
      if (diverged[r]) {
        out.add(replicas[r]);
      }
    }
    return out;
  }

  /**
   * Failover left this copy the partition's only one (docs/cluster.md,
   * "Failure detection and failover"): the metadata group committed an epoch
   * without the other copies, so what they did not acknowledge no longer
   * waits for them. Releases every held answer, in order, and answers what
   * the site releases from now on at once (the site then sequences in the
   * new epoch behind no replication at all). Any thread.
   */
  public void alone() {
    final LeaderPipeline previous = predecessor;
    if (previous != null) {
      previous.alone();
    }
    final List<Runnable> ready = new ArrayList<>();
    synchronized (this) {
      if (alone || deposed != null) {
        return;
      }
      alone = true;
      while (!pending.isEmpty()) {
        ready.add(pending.removeFirst().answer());
        committed++;
      }
    }
    ready.forEach(Runnable::run);
    emptied.run();
    LOG.info("partition " + partition + ": this copy (host " + leaderHost + ") is the only one left; " + ready.size()
        + " held answer(s) released");
  }

  /**
   * This host no longer leads the partition (the metadata group moved it, or
   * the host stopped serving): every held answer is failed with
   * OUTCOME_UNKNOWN (the transaction ran here and may have reached a copy
   * that now leads, so it may have committed), and anything the site
   * releases from now on too; {@link #refusal} makes the site refuse new
   * work with NOT_LEADER. Any thread.
   */
  public void depose(String why) {
    final LeaderPipeline previous = predecessor;
    if (previous != null) {
      previous.depose(why);
    }
    final List<Runnable> failed = new ArrayList<>();
    synchronized (this) {
      if (deposed != null) {
        return;
      }
      deposed = why;
      while (!pending.isEmpty()) {
        final Pending p = pending.removeFirst();
        failed.add(unknown(p.done(), p.answer()));
      }
    }
    failed.forEach(Runnable::run);
    emptied.run();
    LOG.warning("partition " + partition + ": host " + leaderHost + " no longer leads it (" + why + "); "
        + failed.size() + " held answer(s) failed as OUTCOME_UNKNOWN");
  }

  /** OUTCOME_UNKNOWN to {@code done}; without one (a caller of the Runnable form), nothing is said. */
  private Runnable unknown(Consumer<ClientResponse> done, Runnable answer) {
    if (done == null) {
      return () -> { };
    }
    final String why = deposed;
    return () -> done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "partition " + partition
        + " ran the call on host " + leaderHost + ", which lost the partition's leadership before every copy "
        + "acknowledged it (" + why + "); it may have committed: retry with the same client sequence, or read "
        + "to find out"));
  }

  @Override
  public String refusal() {
    final String why = deposed;
    return why == null ? null : "host " + leaderHost + " no longer leads partition " + partition + " (" + why
        + "); the call was not run: send it to the partition's leader";
  }

  @Override
  public ErrorCode refusalCode() {
    return ErrorCode.ERROR_CODE_NOT_LEADER;
  }

  /** True once {@link #alone} ran. */
  public synchronized boolean isAlone() {
    return alone;
  }

  /** Why this pipeline was deposed, or null. */
  public String deposed() {
    return deposed;
  }

  /**
   * One item run here and not yet acknowledged by every replica: its bytes as
   * its replicas get them ({@link ReplicatedItemBytes}) and the write hash
   * they carry; {@code done} is null for a bare answer.
   */
  record Pending(long sequence, byte[] item, long writeHash, Runnable answer, Consumer<ClientResponse> done) {}
}
