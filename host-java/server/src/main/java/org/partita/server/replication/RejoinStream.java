package org.partita.server.replication;

import com.google.protobuf.ByteString;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.IntConsumer;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RejoinChunk;
import org.partita.proto.cluster.RejoinItems;
import org.partita.proto.cluster.RejoinProgress;
import org.partita.proto.cluster.RejoinStart;
import org.partita.proto.cluster.ReplicatedItem;

/**
 * A partition leader's side of one rejoin stream to one joining host
 * (docs/cluster.md, "Rejoin"): it takes the chunks of the partition's
 * copy-on-write snapshot (the host adapts it as the site's snapshot sink)
 * and sends them, and the items the leader
 * runs after the snapshot ({@link #forward}), which it sends after them.
 * The joining host's {@link RejoinProgress} tells it how far the copy is:
 * the snapshot is throttled by it ({@link #takesChunk} takes a chunk only while
 * fewer than {@link #WINDOW_CHUNKS} are sent and not yet loaded, so the
 * leader's site makes a chunk, a pause of its own, only when the joiner has
 * room), and {@link #caughtUp} says when to ask for {@code AddReplica}.
 * {@link #endEpoch} sends the last item of the old epoch once the joining
 * copy is in the new one.
 *
 * <p>A stream lives for one attempt: a new connection to the joiner (what
 * was sent may be lost), a failure the joiner reports, or a snapshot that
 * failed ends it ({@link #ended}); the owner starts a new one. The site
 * sees {@link #cancelled} and drops the snapshot.
 *
 * <p>Thread model: the snapshot's calls and {@link #forward} on the partition's site
 * thread, {@link #drain}, {@link #reconnected} and {@link #progress} on the
 * internal port's event loop; state guarded by this object's monitor.
 */
public final class RejoinStream implements OutboundSource {
  /** Chunks sent and not yet loaded by the joiner, at most. */
  static final int WINDOW_CHUNKS = 8;
  /** Items in one frame at most. */
  static final int MAX_ITEMS_PER_FRAME = 512;
  /** Items waiting to be sent at most; past it the joiner is too slow and the stream ends. */
  static final int MAX_WAITING_ITEMS = 1 << 20;

  private final int joinerHost;
  private final RejoinStart start;
  private final IntConsumer wake;
  // Guarded by this.
  private boolean startSent;
  private final Deque<RejoinChunk> chunks = new ArrayDeque<>();
  private long chunksMade;
  private long chunksSent;
  private boolean snapshotMade;
  private final Deque<ReplicatedItem> waiting = new ArrayDeque<>();
  private long lastForwarded;
  private boolean epochEnded;
  private boolean lastSent;
  private RejoinProgress progress;
  private String ended;
  private long longestPauseNanos;
  private long longestPauseCpuNanos;
  private long bytesMade;

  /**
   * @param joinerHost the joining host
   * @param start the stream's first frame: its snapshot holds the items of
   *     its epoch through {@code snapshot_sequence}, and {@link #forward}
   *     gets every one after it
   * @param wake asks the link to the joining host to pull this stream's frames
   */
  public RejoinStream(int joinerHost, RejoinStart start, IntConsumer wake) {
    this.joinerHost = joinerHost;
    this.start = start;
    this.wake = wake;
    this.lastForwarded = start.getSnapshotSequence();
    this.progress = RejoinProgress.newBuilder().setPartition(start.getPartition()).setEpoch(start.getEpoch())
        .setExecutedSequence(start.getSnapshotSequence()).build();
  }

  public RejoinStart start() {
    return start;
  }

  /** The joining host this stream goes to. */
  public int joiner() {
    return joinerHost;
  }

  /** True once the stream ended: the site drops the snapshot. */
  public synchronized boolean cancelled() {
    return ended != null;
  }

  /** Whether the site may make the next chunk now (the joining host has room for it). */
  public synchronized boolean takesChunk() {
    return ended == null && chunksMade - progress.getChunksLoaded() < WINDOW_CHUNKS;
  }

  /**
   * The snapshot's next chunk, which took the leader's site {@code madeNanos}
   * (its pause; {@code madeCpuNanos} of the thread's CPU) to make.
   */
  public void chunk(byte[] chunk, long madeNanos, long madeCpuNanos) {
    synchronized (this) {
      chunks.add(RejoinChunk.newBuilder().setPartition(start.getPartition()).setEpoch(start.getEpoch())
          .setIndex(chunksMade++).setChunk(ByteString.copyFrom(chunk)).build());
      bytesMade += chunk.length;
      longestPauseNanos = Math.max(longestPauseNanos, madeNanos);
      longestPauseCpuNanos = Math.max(longestPauseCpuNanos, madeCpuNanos);
    }
    wake.accept(joinerHost);
  }

  /** Every chunk of the snapshot was given. */
  public void snapshotFinished() {
    synchronized (this) {
      chunks.add(RejoinChunk.newBuilder().setPartition(start.getPartition()).setEpoch(start.getEpoch())
          .setIndex(chunksMade++).setLast(true).build());
      snapshotMade = true;
    }
    wake.accept(joinerHost);
  }

  /** The snapshot stopped with {@code error}. */
  public synchronized void snapshotFailed(String error) {
    end("the snapshot of partition " + start.getPartition() + " failed: " + error);
  }

  /**
   * The leader ran the item after the snapshot (in sequence order, of the
   * stream's epoch); it goes to the joining host after the snapshot.
   */
  public void forward(ReplicatedItem item) {
    synchronized (this) {
      if (ended != null || epochEnded) {
        return;
      }
      final long sequence = item.getItem().getHeader().getSequence();
      if (item.getItem().getHeader().getEpoch() != start.getEpoch() || sequence != lastForwarded + 1) {
        end("the leader forwarded item " + sequence + " of epoch " + item.getItem().getHeader().getEpoch()
            + " after " + lastForwarded + " of epoch " + start.getEpoch());
        return;
      }
      if (waiting.size() >= MAX_WAITING_ITEMS) {
        end("the joining host fell " + MAX_WAITING_ITEMS + " items behind");
        return;
      }
      waiting.add(item);
      lastForwarded = sequence;
    }
    wake.accept(joinerHost);
  }

  /**
   * The leader left the stream's epoch (the joining copy is a replica of the
   * next one): the item last forwarded is the epoch's last.
   */
  public void endEpoch() {
    synchronized (this) {
      epochEnded = true;
    }
    wake.accept(joinerHost);
  }

  @Override
  public synchronized InternalFrame drain(int host) {
    if (host != joinerHost || ended != null) {
      return null;
    }
    if (!startSent) {
      startSent = true;
      return InternalFrame.newBuilder().setRejoinStart(start).build();
    }
    if (!chunks.isEmpty()) {
      chunksSent++;
      return InternalFrame.newBuilder().setRejoinChunk(chunks.poll()).build();
    }
    if (waiting.isEmpty() && (!epochEnded || lastSent)) {
      return null;
    }
    final RejoinItems.Builder items = RejoinItems.newBuilder().setPartition(start.getPartition())
        .setEpoch(start.getEpoch());
    while (!waiting.isEmpty() && items.getItemsCount() < MAX_ITEMS_PER_FRAME) {
      items.addItems(waiting.poll());
    }
    if (epochEnded && waiting.isEmpty()) {
      items.setLast(true);
      lastSent = true;
    }
    return InternalFrame.newBuilder().setRejoinItems(items).build();
  }

  @Override
  public synchronized void reconnected(int host) {
    if (host == joinerHost && startSent) {
      end("the connection to the joining host was opened again: what was sent may be lost");
    }
  }

  /** The joining host's progress. Returns null when taken, or why it is refused. */
  public String progress(RejoinProgress from) {
    synchronized (this) {
      if (from.getPartition() != start.getPartition() || from.getJoinerIncarnation() != start.getJoinerIncarnation()
          || from.getEpoch() != start.getEpoch()) {
        return "rejoin progress of partition " + from.getPartition() + " epoch " + from.getEpoch() + " incarnation "
            + from.getJoinerIncarnation() + " for a stream of partition " + start.getPartition() + " epoch "
            + start.getEpoch() + " incarnation " + start.getJoinerIncarnation();
      }
      if (from.getChunksLoaded() < progress.getChunksLoaded()
          || from.getExecutedSequence() < progress.getExecutedSequence()) {
        return "rejoin progress of partition " + start.getPartition() + " went backwards";
      }
      progress = from;
      if (!from.getFailure().isEmpty()) {
        end("the joining host failed: " + from.getFailure());
      }
    }
    wake.accept(joinerHost);
    return null;
  }

  /**
   * True when the joining copy loaded the snapshot and runs within
   * {@code maxLag} items of the leader: time to ask for {@code AddReplica}.
   */
  public synchronized boolean caughtUp(long maxLag) {
    return ended == null && snapshotMade && progress.getSnapshotLoaded()
        && lastForwarded - progress.getExecutedSequence() <= maxLag;
  }

  /** True once the joining copy ran every item of the ended epoch. */
  public synchronized boolean drainedEpoch() {
    return epochEnded && lastSent && progress.getExecutedSequence() == lastForwarded;
  }

  /** Ends the stream (why), if it has not ended. */
  public synchronized void end(String why) {
    if (ended == null) {
      ended = why;
    }
  }

  /** Why the stream ended, or null while it goes on. */
  public synchronized String ended() {
    return ended;
  }

  /** The longest the leader's site paused to make one chunk, in ns (wall time). */
  public synchronized long longestPauseNanos() {
    return longestPauseNanos;
  }

  /** The site thread's CPU time in the longest chunk, in ns. */
  public synchronized long longestPauseCpuNanos() {
    return longestPauseCpuNanos;
  }

  /** The snapshot's bytes made so far. */
  public synchronized long bytesMade() {
    return bytesMade;
  }

  /** The last sequence forwarded (the snapshot's sequence before any). */
  public synchronized long lastForwarded() {
    return lastForwarded;
  }
}
