package org.partita.server.durability;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.partita.proto.txn.Aborted;
import org.partita.proto.txn.MultiPartitionJoin;
import org.partita.proto.txn.ProcedureInvocation;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * The bytes of the command log (docs/durability.md, "Files on disk"), all
 * integers big-endian.
 *
 * <p>A segment starts with a 64-byte header: magic "PTLG", format version,
 * segment number, the epoch of the run that wrote it, the partition count,
 * the fingerprint of the starting schema, the creation time, and a CRC32C
 * of those 40 bytes. Records follow; the rest of the preallocated file is
 * zeros, so a length of 0 ends the segment.
 *
 * <p>A record: length (4: the bytes after the CRC), CRC32C (4: of the
 * length and those bytes), partition (4), epoch (8), sequence (8), catalog
 * version (8), timestamp in µs (8), seed (8), kind (1: 1 a single-partition
 * {@code ProcedureInvocation}, 2 a {@code MultiPartitionJoin}, 3 an
 * {@code Aborted} marker for the transaction of its header, with an empty
 * body, 4 a {@code MultiPartitionRun}: a cluster copy's committed part of a
 * multi-partition transaction, its engine batches, committed or prepared,
 * 5 a {@code MultiPartitionDecision}: the commit or roll back of the part a
 * cluster copy logged prepared before it), then the work item's protobuf
 * bytes (proto/txn.proto). Stateless.
 */
final class LogFormat {
  static final int MAGIC = 0x50544C47;
  static final int VERSION = 1;
  static final int SEGMENT_HEADER_BYTES = 64;
  private static final int SEGMENT_HEADER_CHECKED = 40;
  static final int FRAME_PREFIX = 8;
  static final int FIXED = 4 + 8 + 8 + 8 + 8 + 8 + 1;
  /** The largest record body accepted when reading (a frame claiming more is damaged). */
  static final int MAX_BODY = 1 << 30;
  static final byte KIND_SINGLE_PARTITION = 1;
  static final byte KIND_MULTI_PARTITION = 2;
  static final byte KIND_ABORTED = 3;
  static final byte KIND_MULTI_PARTITION_PART = 4;
  static final byte KIND_DECISION = 5;
  /** Where the kind byte is, from a frame's start. */
  static final int KIND_OFFSET = FRAME_PREFIX + 44;

  private LogFormat() {}

  /** What a segment header says. */
  record SegmentHeader(long number, long epoch, int partitions, int schemaFingerprint, long createdMillis) {}

  /** The bytes a frame with a body of {@code bodyBytes} takes. */
  static int frameBytes(int bodyBytes) {
    return FRAME_PREFIX + FIXED + bodyBytes;
  }

  /** The kind byte and body of {@code item}'s record. */
  static byte kind(WorkItem item) {
    return switch (item.getKindCase()) {
      case SINGLE_PARTITION -> KIND_SINGLE_PARTITION;
      case MULTI_PARTITION -> KIND_MULTI_PARTITION;
      case ABORTED -> KIND_ABORTED;
      case MULTI_PARTITION_RUN -> KIND_MULTI_PARTITION_PART;
      case DECISION -> KIND_DECISION;
      default -> throw new IllegalArgumentException("a work item with no kind cannot be logged");
    };
  }

  static com.google.protobuf.MessageLite body(WorkItem item) {
    return switch (item.getKindCase()) {
      case SINGLE_PARTITION -> item.getSinglePartition();
      case ABORTED -> item.getAborted();
      case MULTI_PARTITION_RUN -> item.getMultiPartitionRun();
      case DECISION -> item.getDecision();
      default -> item.getMultiPartition();
    };
  }

  /**
   * Appends the record of {@code header} and {@code body} at {@code out}'s
   * position. REQUIRES: {@code frameBytes(body.length)} bytes remaining.
   */
  static void writeFrame(ByteBuffer out, TxnHeader header, byte kind, byte[] body, CRC32C crc) {
    final int start = out.position();
    out.putInt(FIXED + body.length).putInt(0)
        .putInt(header.id().partition()).putLong(header.id().epoch()).putLong(header.id().sequence())
        .putLong(header.catalogVersion()).putLong(header.timestampMicros()).putLong(header.seed())
        .put(kind).put(body);
    out.putInt(start + 4, checksum(out, start, out.position(), crc));
  }

  /**
   * Appends the record of a single-partition call, {@code invocation}
   * under {@code header}, with the same bytes as {@link #writeFrame} of its
   * protobuf form but without building it. REQUIRES:
   * {@code frameBytes(invocation.protoSize())} bytes remaining.
   */
  static void writeFrame(ByteBuffer out, TxnHeader header, Invocation invocation, CRC32C crc) {
    final int start = out.position();
    out.putInt(FIXED + invocation.protoSize()).putInt(0)
        .putInt(header.id().partition()).putLong(header.id().epoch()).putLong(header.id().sequence())
        .putLong(header.catalogVersion()).putLong(header.timestampMicros()).putLong(header.seed())
        .put(KIND_SINGLE_PARTITION);
    invocation.writeProto(out);
    out.putInt(start + 4, checksum(out, start, out.position(), crc));
  }

  /** The CRC32C of a frame spanning [start, end) of {@code buf}: its length field and everything after the CRC. */
  static int checksum(ByteBuffer buf, int start, int end, CRC32C crc) {
    crc.reset();
    final ByteBuffer view = buf.duplicate();
    view.limit(start + 4).position(start);
    crc.update(view);
    view.limit(end).position(start + FRAME_PREFIX);
    crc.update(view);
    return (int) crc.getValue();
  }

  /** A record read back: the work item and the offset just after it. */
  record Frame(WorkItem item, int end) {}

  /** A frame that cannot be read; {@code reason} says why. */
  static final class BadFrame extends Exception {
    BadFrame(String reason) {
      super(reason);
    }
  }

  /**
   * The record at {@code offset} of {@code segment} (its limit is the end
   * of the file), or null when the segment's records end there (a zero
   * length, or no room for one).
   *
   * @throws BadFrame when the bytes there are not a whole, intact record
   */
  static Frame readFrame(ByteBuffer segment, int offset, CRC32C crc) throws BadFrame {
    if (segment.limit() - offset < 4) {
      return null;
    }
    final int length = segment.getInt(offset);
    if (length == 0) {
      return null;
    }
    if (length < FIXED || length > FIXED + MAX_BODY) {
      throw new BadFrame("a record length of " + length + " bytes");
    }
    final long end = (long) offset + FRAME_PREFIX + length;
    if (end > segment.limit()) {
      throw new BadFrame("a record of " + length + " bytes that runs past the end of the file ("
          + (segment.limit() - offset) + " bytes left)");
    }
    if (segment.getInt(offset + 4) != checksum(segment, offset, (int) end, crc)) {
      throw new BadFrame("a record whose CRC32C does not match its bytes");
    }
    return new Frame(decode(segment, offset + FRAME_PREFIX, (int) end), (int) end);
  }

  private static WorkItem decode(ByteBuffer segment, int at, int end) throws BadFrame {
    final TxnHeader header;
    try {
      header = new TxnHeader(new TxnId(segment.getInt(at), segment.getLong(at + 4),
          segment.getLong(at + 12)), segment.getLong(at + 28), segment.getLong(at + 36), segment.getLong(at + 20));
    } catch (IllegalArgumentException e) {
      throw new BadFrame("a record with " + e.getMessage());
    }
    final byte kind = segment.get(at + 44);
    final ByteBuffer body = segment.duplicate();
    body.limit(end).position(at + FIXED);
    final WorkItem.Builder item = WorkItem.newBuilder().setHeader(header.toProto());
    try {
      if (kind == KIND_SINGLE_PARTITION) {
        item.setSinglePartition(ProcedureInvocation.parseFrom(body));
      } else if (kind == KIND_MULTI_PARTITION) {
        item.setMultiPartition(MultiPartitionJoin.parseFrom(body));
      } else if (kind == KIND_ABORTED) {
        item.setAborted(Aborted.parseFrom(body));
      } else if (kind == KIND_MULTI_PARTITION_PART) {
        item.setMultiPartitionRun(org.partita.proto.txn.MultiPartitionRun.parseFrom(body));
      } else if (kind == KIND_DECISION) {
        item.setDecision(org.partita.proto.txn.MultiPartitionDecision.parseFrom(body));
      } else {
        throw new BadFrame("a record of unknown kind " + kind);
      }
    } catch (InvalidProtocolBufferException e) {
      throw new BadFrame("a record whose work item does not parse: " + e.getMessage());
    }
    return item.build();
  }

  /**
   * Adds to {@code into} the transaction of every intact {@link #KIND_ABORTED}
   * record of {@code segment}, reading only frame lengths and kinds (and
   * checking the CRC32C of those records). Stops at the first length that is
   * not a record's: {@link #readFrame} decides there what is damage.
   */
  static void abortedTransactions(ByteBuffer segment, CRC32C crc, java.util.Set<TxnId> into) {
    for (int offset = SEGMENT_HEADER_BYTES; segment.limit() - offset >= FRAME_PREFIX + FIXED; ) {
      final int length = segment.getInt(offset);
      final long end = (long) offset + FRAME_PREFIX + length;
      if (length < FIXED || length > FIXED + MAX_BODY || end > segment.limit()) {
        return;
      }
      if (segment.get(offset + KIND_OFFSET) == KIND_ABORTED
          && segment.getInt(offset + 4) == checksum(segment, offset, (int) end, crc)) {
        final int at = offset + FRAME_PREFIX;
        into.add(new TxnId(segment.getInt(at), segment.getLong(at + 4), segment.getLong(at + 12)));
      }
      offset = (int) end;
    }
  }

  /** Writes a segment header at {@code out}'s position (64 bytes). */
  static void writeSegmentHeader(ByteBuffer out, SegmentHeader header, CRC32C crc) {
    final int start = out.position();
    out.putInt(MAGIC).putInt(VERSION).putLong(header.number()).putLong(header.epoch()).putInt(header.partitions())
        .putInt(header.schemaFingerprint()).putLong(header.createdMillis());
    crc.reset();
    final ByteBuffer view = out.duplicate();
    view.limit(start + SEGMENT_HEADER_CHECKED).position(start);
    crc.update(view);
    out.putInt((int) crc.getValue());
    out.put(new byte[SEGMENT_HEADER_BYTES - SEGMENT_HEADER_CHECKED - 4]);
  }

  /**
   * The header at the start of {@code segment}.
   *
   * @throws BadFrame when it is not an intact segment header of this format
   */
  static SegmentHeader readSegmentHeader(ByteBuffer segment, CRC32C crc) throws BadFrame {
    if (segment.limit() < SEGMENT_HEADER_BYTES) {
      throw new BadFrame("a file of " + segment.limit() + " bytes, too short for a segment header");
    }
    if (segment.getInt(0) != MAGIC) {
      throw new BadFrame("no segment header (magic " + Integer.toHexString(segment.getInt(0)) + ")");
    }
    crc.reset();
    final ByteBuffer view = segment.duplicate();
    view.limit(SEGMENT_HEADER_CHECKED).position(0);
    crc.update(view);
    if (segment.getInt(SEGMENT_HEADER_CHECKED) != (int) crc.getValue()) {
      throw new BadFrame("a segment header whose CRC32C does not match");
    }
    if (segment.getInt(4) != VERSION) {
      throw new BadFrame("format version " + segment.getInt(4) + " (this server reads version " + VERSION + ")");
    }
    return new SegmentHeader(segment.getLong(8), segment.getLong(16), segment.getInt(24), segment.getInt(28),
        segment.getLong(32));
  }
}
