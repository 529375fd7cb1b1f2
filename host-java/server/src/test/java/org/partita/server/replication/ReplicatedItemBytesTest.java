package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.Aborted;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * A leader writes its replicated items and batch frames without building
 * their protobuf objects: the bytes must be exactly those protobuf writes,
 * for every kind of item it writes that way and for values at the edges of
 * each field's encoding (zeros left out, negative timestamps, the largest
 * values).
 */
class ReplicatedItemBytesTest {
  private static final long[] LONGS = {0, 1, 127, 128, 1L << 35, Long.MAX_VALUE, -1, Long.MIN_VALUE};

  private static List<TxnHeader> headers() {
    final List<TxnHeader> headers = new ArrayList<>();
    for (int partition : new int[] {0, 1, 200, TxnId.MULTI_PARTITION}) {
      for (long value : LONGS) {
        final long positive = value <= 0 ? 1 : value;
        headers.add(new TxnHeader(new TxnId(partition, positive, positive), value, value, value));
      }
    }
    return headers;
  }

  private static List<Invocation> invocations() {
    final List<Invocation> calls = new ArrayList<>();
    for (long value : LONGS) {
      calls.add(Invocation.of("Vote", new Object[] {value, 3, "x".repeat(200)}, value, value));
    }
    calls.add(Invocation.of("Nothing", new Object[0], 0, 0));
    return calls;
  }

  @Test
  void shouldWriteASinglePartitionItemAsProtobufDoes() {
    for (TxnHeader header : headers()) {
      for (Invocation call : invocations()) {
        for (long hash : LONGS) {
          final ReplicatedItem expected = ReplicatedItem.newBuilder().setItem(WorkItem.newBuilder()
              .setHeader(header.toProto()).setSinglePartition(call.toProto())).setWriteHash(hash).build();
          assertArrayEquals(expected.toByteArray(), ReplicatedItemBytes.singlePartition(header, call, hash),
              header + " " + call + " hash " + hash);
        }
      }
    }
  }

  @Test
  void shouldWriteMarkersAndAbortedItemsAsProtobufDoes() {
    for (TxnHeader header : headers()) {
      final ReplicatedItem marker = ReplicatedItem.newBuilder().setItem(WorkItem.newBuilder()
          .setHeader(header.toProto())).build();
      assertArrayEquals(marker.toByteArray(), ReplicatedItemBytes.marker(header, false), header.toString());
      final ReplicatedItem aborted = ReplicatedItem.newBuilder().setItem(WorkItem.newBuilder()
          .setHeader(header.toProto()).setAborted(Aborted.getDefaultInstance())).build();
      assertArrayEquals(aborted.toByteArray(), ReplicatedItemBytes.marker(header, true), header.toString());
      assertEquals(aborted, ReplicatedItemBytes.parse(ReplicatedItemBytes.marker(header, true)));
    }
  }

  @Test
  void shouldWriteABatchFrameAsProtobufDoes() throws IOException {
    final List<TxnHeader> headers = headers();
    final byte[][] items = new byte[headers.size()][];
    final ReplicationBatch.Builder batch = ReplicationBatch.newBuilder();
    for (int i = 0; i < items.length; i++) {
      final Invocation call = Invocation.of("Vote", new Object[] {(long) i}, 5, i + 1);
      items[i] = i % 3 == 0 ? ReplicatedItemBytes.marker(headers.get(i), false)
          : ReplicatedItemBytes.singlePartition(headers.get(i), call, i * 31L);
      batch.addItems(ReplicatedItem.parseFrom(items[i]));
    }
    for (int partition : new int[] {0, 7}) {
      for (long value : LONGS) {
        final int host = (int) (value & 0xFF);
        final InternalFrame expected = InternalFrame.newBuilder().setReplicationBatch(batch.clone()
            .setPartition(partition).setEpoch(value).setLeaderHostId(host).setCommittedSequence(value)).build();
        final BatchFrame frame = new BatchFrame(partition, value, host, value, items);
        final byte[] written = new byte[frame.serializedSize()];
        final CodedOutputStream out = CodedOutputStream.newInstance(written);
        frame.writeTo(out);
        out.checkNoSpaceLeft();
        assertArrayEquals(expected.toByteArray(), written, "partition " + partition + " value " + value);
        assertEquals(expected, frame.toFrame());
      }
    }
    final BatchFrame empty = new BatchFrame(1, 1, 1, 0, new byte[0][]);
    assertEquals(0, empty.toFrame().getReplicationBatch().getItemsCount());
  }
}
