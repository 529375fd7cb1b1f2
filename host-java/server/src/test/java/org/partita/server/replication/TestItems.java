package org.partita.server.replication;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Supplier;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.WorkItem;
import org.partita.server.cluster.InternalFrames;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/** Items, headers, frames, maps and listeners for the replication tests. */
final class TestItems {
  private TestItems() {}

  /** Two hosts, K = 1: host h leads partition h (epoch 1) and replicates the other; buckets alternate. */
  static PartitionMap twoHosts() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 2;
    }
    return PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 1, List.of(1, 0), 1)));
  }

  /** An internal-port listener on {@code address} (any port): the framing, then a handler {@code handler} makes. */
  static Channel listen(EventLoopGroup group, String address, Supplier<ChannelHandler> handler)
      throws InterruptedException {
    return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            InternalFrames.install(channel.pipeline());
            channel.pipeline().addLast(handler.get());
          }
        }).bind(new InetSocketAddress(address, 0)).sync().channel();
  }

  static TxnHeader header(int partition, long epoch, long sequence) {
    return new TxnHeader(new TxnId(partition, epoch, sequence), 1_000 + sequence, 7 * sequence, 1);
  }

  /** A single-partition call Put(key, value) as a site would hand it to its pipeline. */
  static SequencedItem put(long key, long value) {
    final Invocation invocation = Invocation.of("Put", new Object[] {key, value}, 9, key);
    return header -> WorkItem.newBuilder().setHeader(header.toProto()).setSinglePartition(invocation.toProto())
        .build();
  }

  /** A part of multi-partition transaction mp:1:{@code txn}, prepared (held open on replicas) or committed. */
  static SequencedItem part(long txn, boolean prepared) {
    return header -> WorkItem.newBuilder().setHeader(header.toProto()).setMultiPartitionRun(
        org.partita.proto.txn.MultiPartitionRun.newBuilder().setPrepared(prepared).setJoin(
            org.partita.proto.txn.MultiPartitionJoin.newBuilder().setCoordinator(header(TxnId.MULTI_PARTITION, 1, txn)
                .toProto()))).build();
  }

  /** The decision on the part of mp:1:{@code txn} prepared just before. */
  static SequencedItem decision(long txn, boolean commit) {
    return header -> WorkItem.newBuilder().setHeader(header.toProto()).setDecision(
        org.partita.proto.txn.MultiPartitionDecision.newBuilder().setCommit(commit)
            .setCoordinator(header(TxnId.MULTI_PARTITION, 1, txn).toProto())).build();
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
