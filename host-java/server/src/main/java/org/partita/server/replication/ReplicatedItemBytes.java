package org.partita.server.replication;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnHeader;

/**
 * The wire bytes of one {@code partita.cluster.ReplicatedItem}
 * (proto/cluster.proto), as a leader keeps each item until its replicas
 * acknowledged it and as its batch frames carry it. A single-partition
 * call and a marker are written on the leader's site straight from the
 * header and the invocation's bytes, without building their protobuf
 * objects; the bytes are those protobuf writes for the message (fields in
 * order, defaults left out). Other items are serialized from their
 * protobuf form.
 */
final class ReplicatedItemBytes {
  /** ReplicatedItem.item, WorkItem.header, WorkItem.single_partition, WorkItem.aborted. */
  private static final int ITEM = 1;
  private static final int HEADER = 1;
  private static final int SINGLE_PARTITION = 2;
  private static final int ABORTED = 4;
  /** ReplicatedItem.write_hash (fixed64). */
  private static final int WRITE_HASH = 2;

  private ReplicatedItemBytes() {}

  /** A single-partition call that changed the leader's copy, with the leader's write hash. */
  static byte[] singlePartition(TxnHeader header, Invocation invocation, long writeHash) {
    final int headerSize = header.protoSize();
    final int callSize = invocation.protoSize();
    final int workItemSize = CodedOutputStream.computeTagSize(HEADER) + lengthAndBytes(headerSize)
        + CodedOutputStream.computeTagSize(SINGLE_PARTITION) + lengthAndBytes(callSize);
    final byte[] out = new byte[itemSize(workItemSize, writeHash)];
    final CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      writeItemStart(stream, workItemSize, header, headerSize);
      stream.writeTag(SINGLE_PARTITION, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      stream.writeUInt32NoTag(callSize);
      invocation.writeProto(stream);
      writeHash(stream, writeHash);
      stream.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + header.id() + " for its replicas", e);
    }
    return out;
  }

  /**
   * A marker (an item that changed nothing: the replica acknowledges it
   * with hash 0 without running it), or an {@code aborted} item.
   */
  static byte[] marker(TxnHeader header, boolean aborted) {
    final int headerSize = header.protoSize();
    final int workItemSize = CodedOutputStream.computeTagSize(HEADER) + lengthAndBytes(headerSize)
        + (aborted ? CodedOutputStream.computeTagSize(ABORTED) + lengthAndBytes(0) : 0);
    final byte[] out = new byte[itemSize(workItemSize, 0)];
    final CodedOutputStream stream = CodedOutputStream.newInstance(out);
    try {
      writeItemStart(stream, workItemSize, header, headerSize);
      if (aborted) {
        // Aborted is an empty message: set, it is its tag and a length of 0.
        stream.writeTag(ABORTED, WireFormat.WIRETYPE_LENGTH_DELIMITED);
        stream.writeUInt32NoTag(0);
      }
      stream.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + header.id() + " for its replicas", e);
    }
    return out;
  }

  /** Any other item, from its protobuf form. */
  static byte[] of(WorkItem item, long writeHash) {
    return ReplicatedItem.newBuilder().setItem(item).setWriteHash(writeHash).build().toByteArray();
  }

  /** The item {@code bytes} hold (a rejoin stream's copy, a log line); they were written here. */
  static ReplicatedItem parse(byte[] bytes) {
    try {
      return ReplicatedItem.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("a replicated item this leader wrote does not parse: " + e.getMessage(), e);
    }
  }

  private static int itemSize(int workItemSize, long writeHash) {
    return CodedOutputStream.computeTagSize(ITEM) + lengthAndBytes(workItemSize)
        + (writeHash == 0 ? 0 : CodedOutputStream.computeFixed64Size(WRITE_HASH, writeHash));
  }

  private static int lengthAndBytes(int size) {
    return CodedOutputStream.computeUInt32SizeNoTag(size) + size;
  }

  /** ReplicatedItem.item's tag and length, then WorkItem.header. */
  private static void writeItemStart(CodedOutputStream stream, int workItemSize, TxnHeader header, int headerSize)
      throws IOException {
    stream.writeTag(ITEM, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    stream.writeUInt32NoTag(workItemSize);
    stream.writeTag(HEADER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    stream.writeUInt32NoTag(headerSize);
    header.writeProto(stream);
  }

  private static void writeHash(CodedOutputStream stream, long writeHash) throws IOException {
    if (writeHash != 0) {
      stream.writeFixed64(WRITE_HASH, writeHash);
    }
  }
}
