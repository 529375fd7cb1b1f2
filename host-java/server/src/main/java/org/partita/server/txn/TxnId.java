package org.partita.server.txn;

/**
 * A transaction's identity: the partition whose initiator sequenced it, the
 * partition's leadership epoch at that moment, and its position in the
 * partition's order within the epoch. A site executes its partition's
 * transactions in TxnId order, and every replica of the partition executes
 * exactly that order. Immutable.
 *
 * @param partition the sequencing partition ({@link #MULTI_PARTITION} for the coordinator)
 * @param epoch the leadership epoch; it changes only when the partition's leader does
 * @param sequence 1 for the first transaction of the epoch, then one more for each
 */
public record TxnId(int partition, long epoch, long sequence) implements Comparable<TxnId> {
  /** The partition number of transactions sequenced by the multi-partition coordinator. */
  public static final int MULTI_PARTITION = 0xFFFF;

  public TxnId {
    if (partition < 0 || partition > MULTI_PARTITION || epoch < 1 || sequence < 1) {
      throw new IllegalArgumentException("not a transaction id: partition " + partition + ", epoch " + epoch
          + ", sequence " + sequence);
    }
  }

  /** Order within one partition: by epoch, then sequence. REQUIRES: both ids of the same partition. */
  @Override
  public int compareTo(TxnId other) {
    final int byEpoch = Long.compare(epoch, other.epoch);
    return byEpoch != 0 ? byEpoch : Long.compare(sequence, other.sequence);
  }

  @Override
  public String toString() {
    return (partition == MULTI_PARTITION ? "mp" : "p" + partition) + ":" + epoch + ":" + sequence;
  }
}
