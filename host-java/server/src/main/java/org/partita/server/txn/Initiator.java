package org.partita.server.txn;

import java.util.function.LongSupplier;

/**
 * Sequences one partition's work: gives each item the next {@link TxnId} of
 * the partition's epoch, a timestamp (microseconds, strictly increasing
 * within the partition, following the wall clock when it moves forward), a
 * seed for the transaction's random generator, and the catalog version the
 * item runs against; then hands it to the {@link CommitPipeline} before it
 * runs. The partition's execution order is therefore its sequence order,
 * and both are recorded in the headers.
 *
 * <p>Thread model: confined to the partition's site thread, which calls
 * {@link #sequence} as each item leaves the site's queue (the queue is the
 * initiator's inbox; one consumer makes sequencing lock-free). In a cluster
 * the partition's leader sequences; its replicas run the leader's headers.
 */
public final class Initiator {
  private final int partition;
  private final long epoch;
  private final CommitPipeline pipeline;
  private final LongSupplier clockMicros;
  private long lastSequence;
  private long lastTimestamp;
  private TxnId lastAdopted;

  /**
   * @param clockMicros the wall clock in µs since the epoch (tests give a fixed one)
   */
  public Initiator(int partition, long epoch, CommitPipeline pipeline, LongSupplier clockMicros) {
    this.partition = partition;
    this.epoch = epoch;
    this.pipeline = pipeline;
    this.clockMicros = clockMicros;
  }

  /** An initiator for {@code partition} in epoch 1 on the system clock. */
  public static Initiator forPartition(int partition, CommitPipeline pipeline) {
    return forPartition(partition, 1, pipeline);
  }

  /**
   * An initiator for {@code partition} in {@code epoch} on the system clock.
   * A host that restarts on its command log begins a new epoch (one more
   * than the log's last), so its new ids follow every logged one.
   */
  public static Initiator forPartition(int partition, long epoch, CommitPipeline pipeline) {
    return new Initiator(partition, epoch, pipeline, () -> System.currentTimeMillis() * 1000);
  }

  public int partition() {
    return partition;
  }

  public CommitPipeline pipeline() {
    return pipeline;
  }

  /** The timestamp of the last header given or adopted (0 before any). */
  public long lastTimestampMicros() {
    return lastTimestamp;
  }

  /** The last sequence given (0 before the first). */
  public long lastSequence() {
    return lastSequence;
  }

  /** Gives {@code item} its header and tells the pipeline; the item runs next. */
  public TxnHeader sequence(SequencedItem item, long catalogVersion) {
    final TxnHeader header = nextHeader(catalogVersion);
    pipeline.sequenced(header, item);
    return header;
  }

  /**
   * The next header, without telling the pipeline: for the multi-partition
   * coordinator, whose transactions are logged and replicated by the
   * partitions they join.
   */
  public TxnHeader nextHeader(long catalogVersion) {
    final TxnId id = new TxnId(partition, epoch, ++lastSequence);
    lastTimestamp = Math.max(lastTimestamp + 1, clockMicros.getAsLong());
    return new TxnHeader(id, lastTimestamp, seed(id), catalogVersion);
  }

  /**
   * Takes {@code header}, which this partition sequenced in an earlier
   * epoch (before a restart; recovery replays it), as the last one seen: it
   * must follow every header adopted so far, and the next header given
   * follows it in time. REQUIRES: {@code header} of this partition.
   *
   * @throws IllegalStateException when it is another partition's, not of an earlier epoch, or out of order
   */
  public void adopt(TxnHeader header) {
    final TxnId id = header.id();
    if (id.partition() != partition || id.epoch() >= epoch || lastAdopted != null && id.compareTo(lastAdopted) <= 0) {
      throw new IllegalStateException("partition " + partition + " (epoch " + epoch + ", last replayed "
          + lastAdopted + ") cannot replay " + id + ": the log is out of order");
    }
    lastAdopted = id;
    lastTimestamp = Math.max(lastTimestamp, header.timestampMicros());
  }

  /**
   * The id of the last item this partition ran: the last one sequenced in this epoch, else the last
   * adopted from an earlier one (replayed, or the cut of a restored snapshot); null when none. A
   * snapshot taken now holds exactly the items up to it.
   */
  public TxnId lastRun() {
    return lastSequence > 0 ? new TxnId(partition, epoch, lastSequence) : lastAdopted;
  }

  /**
   * Takes {@code cut}, the last id of this partition in a snapshot that recovery loaded, as the last
   * one run: the log records replayed next must follow it. REQUIRES: before anything was adopted or
   * sequenced; {@code cut} of this partition and an earlier epoch.
   */
  public void restoreCut(TxnId cut) {
    if (cut.partition() != partition || cut.epoch() >= epoch || lastAdopted != null || lastSequence > 0) {
      throw new IllegalStateException("partition " + partition + " (epoch " + epoch + ") cannot start from the"
          + " snapshot cut " + cut);
    }
    lastAdopted = cut;
  }

  /** A well-mixed seed determined by the id (MurmurHash3's finalizer over its fields). */
  static long seed(TxnId id) {
    long h = id.sequence() * 0x9E3779B97F4A7C15L ^ ((long) id.partition() << 48) ^ id.epoch();
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
