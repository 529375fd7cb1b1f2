package org.partita.server.replication;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import org.partita.proto.cluster.InternalFrame;
import org.partita.server.cluster.EncodedFrame;

/**
 * An {@code InternalFrame} holding one {@code ReplicationBatch}
 * (proto/cluster.proto), written from the items' bytes as the leader keeps
 * them ({@link ReplicatedItemBytes}): the batch's fields, then each item as
 * field {@code items}, with no protobuf object built. Immutable once made.
 */
final class BatchFrame implements EncodedFrame {
  /** InternalFrame.replication_batch; ReplicationBatch's fields. */
  private static final int REPLICATION_BATCH = 4;
  private static final int PARTITION = 1;
  private static final int EPOCH = 2;
  private static final int LEADER_HOST_ID = 3;
  private static final int COMMITTED_SEQUENCE = 4;
  private static final int ITEMS = 5;

  private final int partition;
  private final long epoch;
  private final int leaderHost;
  private final long committed;
  private final byte[][] items;
  private final int batchSize;

  /** @param items each a ReplicatedItem's bytes, in sequence order (not copied; never changed) */
  BatchFrame(int partition, long epoch, int leaderHost, long committed, byte[][] items) {
    this.partition = partition;
    this.epoch = epoch;
    this.leaderHost = leaderHost;
    this.committed = committed;
    this.items = items;
    int size = (partition == 0 ? 0 : CodedOutputStream.computeUInt32Size(PARTITION, partition))
        + (epoch == 0 ? 0 : CodedOutputStream.computeUInt64Size(EPOCH, epoch))
        + (leaderHost == 0 ? 0 : CodedOutputStream.computeUInt32Size(LEADER_HOST_ID, leaderHost))
        + (committed == 0 ? 0 : CodedOutputStream.computeUInt64Size(COMMITTED_SEQUENCE, committed));
    for (byte[] item : items) {
      size += CodedOutputStream.computeByteArraySize(ITEMS, item);
    }
    this.batchSize = size;
  }

  @Override
  public int serializedSize() {
    return CodedOutputStream.computeTagSize(REPLICATION_BATCH) + CodedOutputStream.computeUInt32SizeNoTag(batchSize)
        + batchSize;
  }

  @Override
  public void writeTo(CodedOutputStream out) throws IOException {
    out.writeTag(REPLICATION_BATCH, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(batchSize);
    if (partition != 0) {
      out.writeUInt32(PARTITION, partition);
    }
    if (epoch != 0) {
      out.writeUInt64(EPOCH, epoch);
    }
    if (leaderHost != 0) {
      out.writeUInt32(LEADER_HOST_ID, leaderHost);
    }
    if (committed != 0) {
      out.writeUInt64(COMMITTED_SEQUENCE, committed);
    }
    for (byte[] item : items) {
      // An embedded message and a bytes field are the same on the wire: tag, length, bytes.
      out.writeByteArray(ITEMS, item);
    }
  }

  /** The frame as protobuf objects (tests, diagnostics). */
  InternalFrame toFrame() {
    final byte[] bytes = new byte[serializedSize()];
    final CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      writeTo(out);
      out.checkNoSpaceLeft();
      return InternalFrame.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a batch frame this leader wrote does not parse: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new IllegalStateException("writing a batch frame into an array: " + e.getMessage(), e);
    }
  }
}
