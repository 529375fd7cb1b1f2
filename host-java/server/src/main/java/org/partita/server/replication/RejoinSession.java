package org.partita.server.replication;

import java.util.function.IntConsumer;
import java.util.logging.Logger;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RejoinChunk;
import org.partita.proto.cluster.RejoinItems;
import org.partita.proto.cluster.RejoinProgress;
import org.partita.proto.cluster.RejoinStart;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.ReplicaExecutor;

/**
 * A joining host's side of one partition's rejoin stream (docs/cluster.md,
 * "Rejoin"): takes the leader's {@link RejoinStart}, the snapshot's chunks in
 * order into an empty {@link Copy}, then the items the leader ran after the
 * snapshot, which it buffers until the snapshot is loaded and then runs in
 * sequence order through the {@link ReplicaExecutor}, comparing write hashes
 * with the leader's; it reports how far it is as {@link RejoinProgress}
 * frames. Its answers count for nothing yet: the leader asks the metadata
 * group to add this copy ({@code AddReplica}) once it is caught up, and
 * sends the last item of the old epoch with {@code last}; once every item
 * of that epoch is queued on the copy ({@link #handedOver}) the copy follows
 * the new epoch as an ordinary replica ({@link ReplicaSequencer}).
 *
 * <p>A new start (the leader began again after a reconnection, or a new
 * leader after a failover) throws away everything of the previous attempt:
 * the copy is emptied and loading starts over. {@link #abort} does the same
 * when the metadata moved the partition to an epoch without this host. A
 * write hash other than the leader's, or a chunk the copy refuses, fails
 * the attempt; the progress frame says why, and the leader ends the stream.
 *
 * <p>Thread model: the frames ({@link #start}, {@link #chunk}, {@link #items})
 * and {@link #drain} on the internal port's event loop; {@link Copy}'s
 * callbacks and the executor's outcomes on the copy's site thread;
 * {@link #abort} on the host's follower thread. State guarded by this
 * object's monitor. Neither the copy, the executor nor {@code wake} may
 * block.
 */
public final class RejoinSession implements OutboundSource {
  private static final Logger LOG = Logger.getLogger(RejoinSession.class.getName());

  /** The joining host's empty copy of the partition, which the snapshot is loaded into. */
  public interface Copy {
    /**
     * Empties the copy and starts loading a snapshot into it on its site,
     * which tells {@code loaded} of each chunk loaded, of the end, or of a
     * failure. Never blocks.
     */
    void beginLoad(RejoinStart start, Loaded loaded);

    /** The next chunk of the snapshot being loaded; never blocks (the leader's window bounds them). */
    void chunk(byte[] chunk);

    /** Every chunk was given. */
    void endLoad();
  }

  /** How a copy's load went; called on its site thread. */
  public interface Loaded {
    /** One more chunk is in the copy. */
    void chunkLoaded();

    /** The whole snapshot is in the copy. */
    void done();

    /** The load stopped; the copy must be emptied again before another. */
    void failed(String reason);
  }

  private final int partition;
  private final int selfHost;
  private final long incarnation;
  private final Copy copy;
  private final ReplicaExecutor executor;
  private final IntConsumer wake;
  // Guarded by this.
  private RejoinStart stream;
  private long attempt;
  private long nextChunk;
  private long chunksLoaded;
  private boolean snapshotLoaded;
  private boolean lastItem;
  private final SequenceRing<ReplicaSequencer.Entry> items = new SequenceRing<>();
  private long lastReceived;
  private long submittedThrough;
  private long doneThrough;
  private String failure;
  private boolean progressDue;

  /**
   * @param incarnation this host's incarnation: a stream for another one is refused
   * @param wake asks the link to the leader's host to pull this session's progress
   */
  public RejoinSession(int partition, int selfHost, long incarnation, Copy copy, ReplicaExecutor executor,
      IntConsumer wake) {
    this.partition = partition;
    this.selfHost = selfHost;
    this.incarnation = incarnation;
    this.copy = copy;
    this.executor = executor;
    this.wake = wake;
  }

  public int partition() {
    return partition;
  }

  /**
   * A leader begins (or begins again) streaming the partition to this host.
   * Returns null when taken, or why it is refused.
   */
  public String start(RejoinStart start) {
    final Loaded loaded;
    synchronized (this) {
      if (start.getPartition() != partition || start.getJoinerIncarnation() != incarnation) {
        return "a rejoin stream of partition " + start.getPartition() + " for incarnation "
            + start.getJoinerIncarnation() + ", but this session is of partition " + partition + " for incarnation "
            + incarnation;
      }
      reset();
      stream = start;
      attempt++;
      lastReceived = start.getSnapshotSequence();
      submittedThrough = lastReceived;
      doneThrough = lastReceived;
      progressDue = true;
      loaded = new AttemptLoaded(attempt);
    }
    LOG.info("rejoin: partition " + partition + ": attempt " + attempt + " from host " + start.getLeaderHostId()
        + " in epoch " + start.getEpoch() + ", snapshot after sequence " + start.getSnapshotSequence());
    copy.beginLoad(start, loaded);
    wake.accept(start.getLeaderHostId());
    return null;
  }

  /** One snapshot chunk. Returns null when taken (or stale and ignored), or why it is refused. */
  public String chunk(RejoinChunk chunk) {
    synchronized (this) {
      final String wrong = checkStream(chunk.getPartition(), chunk.getEpoch());
      if (wrong != null) {
        return wrong;
      }
      if (failure != null) {
        return null;
      }
      if (chunk.getIndex() != nextChunk) {
        return "rejoin chunk " + chunk.getIndex() + " of partition " + partition + " where chunk " + nextChunk
            + " was due";
      }
      nextChunk++;
    }
    if (!chunk.getLast() || !chunk.getChunk().isEmpty()) {
      copy.chunk(chunk.getChunk().toByteArray());
    }
    if (chunk.getLast()) {
      copy.endLoad();
    }
    return null;
  }

  /** Items after the snapshot. Returns null when taken, or why they are refused. */
  public String items(RejoinItems batch) {
    synchronized (this) {
      final String wrong = checkStream(batch.getPartition(), batch.getEpoch());
      if (wrong != null) {
        return wrong;
      }
      if (failure != null) {
        return null;
      }
      if (lastItem) {
        return "rejoin items of partition " + partition + " epoch " + batch.getEpoch() + " after its last one";
      }
      for (ReplicatedItem item : batch.getItemsList()) {
        final String refusal = append(item);
        if (refusal != null) {
          return refusal;
        }
      }
      lastItem = batch.getLast();
      pump();
      progressDue = true;
    }
    wake.accept(leaderHost());
    return null;
  }

  private String checkStream(int itemPartition, long epoch) {
    if (stream == null || itemPartition != partition) {
      return "a rejoin frame of partition " + itemPartition + " epoch " + epoch + " without its start";
    }
    if (epoch != stream.getEpoch()) {
      return "a rejoin frame of partition " + partition + " epoch " + epoch + " in a stream of epoch "
          + stream.getEpoch();
    }
    return null;
  }

  private String append(ReplicatedItem replicated) {
    final WorkItem item = replicated.getItem();
    final long sequence = item.getHeader().getSequence();
    if (item.getHeader().getPartition() != partition || item.getHeader().getEpoch() != stream.getEpoch()) {
      return "a rejoin item of partition " + item.getHeader().getPartition() + " epoch "
          + item.getHeader().getEpoch() + " in the stream of partition " + partition + " epoch " + stream.getEpoch();
    }
    if (sequence != lastReceived + 1) {
      return "rejoin item " + sequence + " of partition " + partition + " after " + lastReceived
          + ": items are missing or repeated";
    }
    final boolean marker = switch (item.getKindCase()) {
      case SINGLE_PARTITION, MULTI_PARTITION_RUN, DECISION, SNAPSHOT_CUT -> false;
      default -> true;
    };
    if (marker && replicated.getWriteHash() != 0) {
      return "a rejoin marker of partition " + partition + " sequence " + sequence + " with a write hash";
    }
    items.add(sequence, new ReplicaSequencer.Entry(sequence, replicated, marker));
    lastReceived = sequence;
    return null;
  }

  /** Gives the executor what arrived after the snapshot, in order, once the snapshot is in. REQUIRES: the monitor. */
  private void pump() {
    while (snapshotLoaded && failure == null && submittedThrough < lastReceived) {
      final ReplicaSequencer.Entry entry = items.get(submittedThrough + 1);
      if (!entry.marker && !executor.offer(entry.item.getItem(), new Outcome(attempt, entry.sequence))) {
        return;
      }
      submittedThrough++;
    }
    advanceDone();
  }

  private void advanceDone() {
    while (doneThrough < submittedThrough && items.get(doneThrough + 1).done()) {
      doneThrough++;
      items.removeFirst();
    }
  }

  /**
   * The metadata moved the partition to an epoch without this host while it
   * was streaming (a leader change): the attempt is void. The copy waits,
   * empty, for the new leader's start.
   */
  public void abort(String why) {
    synchronized (this) {
      if (stream == null) {
        return;
      }
      LOG.warning("rejoin: partition " + partition + ": attempt " + attempt + " from host "
          + stream.getLeaderHostId() + " aborted: " + why + "; this host starts over when a leader streams again");
      reset();
    }
  }

  private void reset() {
    stream = null;
    nextChunk = 0;
    chunksLoaded = 0;
    snapshotLoaded = false;
    lastItem = false;
    items.clear();
    lastReceived = 0;
    submittedThrough = 0;
    doneThrough = 0;
    failure = null;
  }

  private void fail(long forAttempt, String why) {
    final int leader;
    synchronized (this) {
      if (forAttempt != attempt || stream == null || failure != null) {
        return;
      }
      failure = why;
      progressDue = true;
      leader = stream.getLeaderHostId();
    }
    LOG.severe("rejoin: partition " + partition + ": attempt " + forAttempt + " failed: " + why);
    wake.accept(leader);
  }

  private void ran(long forAttempt, long sequence, long writeHash) {
    final int leader;
    synchronized (this) {
      if (forAttempt != attempt || !items.contains(sequence)) {
        return;
      }
      final ReplicaSequencer.Entry entry = items.get(sequence);
      entry.ran = true;
      if (writeHash != entry.item.getWriteHash()) {
        failure = "rejoin item (epoch " + stream.getEpoch() + ", sequence " + sequence + ") "
            + ReplicaSequencer.describe(entry.item.getItem()) + " ran here with write hash "
            + Long.toHexString(writeHash) + " but on its leader with " + Long.toHexString(entry.item.getWriteHash());
        LOG.severe("rejoin: partition " + partition + ": " + failure);
      }
      advanceDone();
      pump();
      progressDue = true;
      leader = stream.getLeaderHostId();
    }
    wake.accept(leader);
  }

  private synchronized int leaderHost() {
    return stream == null ? -1 : stream.getLeaderHostId();
  }

  @Override
  public synchronized InternalFrame drain(int host) {
    if (stream == null || host != stream.getLeaderHostId() || !progressDue) {
      return null;
    }
    progressDue = false;
    return InternalFrame.newBuilder().setRejoinProgress(progress()).build();
  }

  @Override
  public synchronized void reconnected(int host) {
    progressDue = stream != null && host == stream.getLeaderHostId();
  }

  /** How far this session is, as the leader hears it. */
  public synchronized RejoinProgress progress() {
    final RejoinProgress.Builder p = RejoinProgress.newBuilder().setPartition(partition).setJoinerHostId(selfHost)
        .setJoinerIncarnation(incarnation).setChunksLoaded(chunksLoaded).setSnapshotLoaded(snapshotLoaded)
        .setExecutedSequence(doneThrough);
    if (stream != null) {
      p.setEpoch(stream.getEpoch());
    }
    if (failure != null) {
      p.setFailure(failure);
    }
    return p.build();
  }

  /**
   * True once the leader sent the last item of the stream's epoch and every
   * item of it was given to the executor: the copy's queue holds the whole
   * old order, so the new epoch's items may follow it.
   */
  public synchronized boolean handedOver() {
    return stream != null && failure == null && lastItem && snapshotLoaded && submittedThrough == lastReceived;
  }

  /** The epoch of the current stream; 0 without one. */
  public synchronized long epoch() {
    return stream == null ? 0 : stream.getEpoch();
  }

  /** How many starts this session took (the first attempt is 1). */
  public synchronized long attempts() {
    return attempt;
  }

  /** Why the current attempt failed, or null. */
  public synchronized String failure() {
    return failure;
  }

  /** The copy's load of one attempt, back to this session; an earlier attempt's news is ignored. */
  private final class AttemptLoaded implements Loaded {
    private final long forAttempt;

    AttemptLoaded(long forAttempt) {
      this.forAttempt = forAttempt;
    }

    @Override
    public void chunkLoaded() {
      final int leader;
      synchronized (RejoinSession.this) {
        if (forAttempt != attempt || stream == null) {
          return;
        }
        chunksLoaded++;
        progressDue = true;
        leader = stream.getLeaderHostId();
      }
      wake.accept(leader);
    }

    @Override
    public void done() {
      final int leader;
      synchronized (RejoinSession.this) {
        if (forAttempt != attempt || stream == null) {
          return;
        }
        snapshotLoaded = true;
        pump();
        progressDue = true;
        leader = stream.getLeaderHostId();
      }
      wake.accept(leader);
    }

    @Override
    public void failed(String reason) {
      fail(forAttempt, "loading the snapshot: " + reason);
    }
  }

  /** The executor's outcome of one item of one attempt. */
  private final class Outcome implements ReplicaExecutor.Done {
    private final long forAttempt;
    private final long sequence;

    Outcome(long forAttempt, long sequence) {
      this.forAttempt = forAttempt;
      this.sequence = sequence;
    }

    @Override
    public void ran(long writeHash) {
      RejoinSession.this.ran(forAttempt, sequence, writeHash);
    }

    @Override
    public void failed(String reason) {
      fail(forAttempt, "rejoin item " + sequence + " could not run: " + reason);
    }

    @Override
    public boolean cancelled() {
      synchronized (RejoinSession.this) {
        return forAttempt != attempt || failure != null;
      }
    }
  }
}
