package org.partita.server.replication;

import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/** Items, headers and frames for the replication tests. */
final class TestItems {
  private TestItems() {}

  static TxnHeader header(int partition, long epoch, long sequence) {
    return new TxnHeader(new TxnId(partition, epoch, sequence), 1_000 + sequence, 7 * sequence, 1);
  }

  /** A single-partition call Put(key, value) as a site would hand it to its pipeline. */
  static SequencedItem put(long key, long value) {
    final Invocation invocation = Invocation.of("Put", new Object[] {key, value}, 9, key);
    return header -> WorkItem.newBuilder().setHeader(header.toProto()).setSinglePartition(invocation.toProto())
        .build();
  }

  /** The item a leader sends for {@code sequence}: a run item with {@code hash}, or a marker when hash is 0. */
  static ReplicatedItem replicated(int partition, long epoch, long sequence, long hash) {
    final TxnHeader header = header(partition, epoch, sequence);
    if (hash == 0) {
      return ReplicatedItem.newBuilder().setItem(WorkItem.newBuilder().setHeader(header.toProto())).build();
    }
    return ReplicatedItem.newBuilder().setItem(put(sequence, sequence * 10).toProto(header)).setWriteHash(hash)
        .build();
  }

  static ReplicationBatch batch(int partition, long epoch, int leader, long committed, ReplicatedItem... items) {
    final ReplicationBatch.Builder batch = ReplicationBatch.newBuilder().setPartition(partition).setEpoch(epoch)
        .setLeaderHostId(leader).setCommittedSequence(committed);
    for (ReplicatedItem item : items) {
      batch.addItems(item);
    }
    return batch.build();
  }

  static ReplicationAck ack(int partition, long epoch, int replica, long first, long... hashes) {
    final ReplicationAck.Builder ack = ReplicationAck.newBuilder().setPartition(partition).setEpoch(epoch)
        .setReplicaHostId(replica).setFirstSequence(first);
    for (long h : hashes) {
      ack.addWriteHashes(h);
    }
    return ack.build();
  }

  static InternalFrame frame(ReplicationBatch batch) {
    return InternalFrame.newBuilder().setReplicationBatch(batch).build();
  }

  static InternalFrame frame(ReplicationAck ack) {
    return InternalFrame.newBuilder().setReplicationAck(ack).build();
  }
}
