package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.partita.proto.txn.MultiPartitionJoin;
import org.partita.proto.txn.ProcedureInvocation;
import org.partita.proto.txn.SchemaChange;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

class LogFormatTest {
  private final CRC32C crc = new CRC32C();
  private static final TxnHeader HEADER = new TxnHeader(new TxnId(3, 2, 77), 1_700_000_000_000_123L, -42L, 5);

  static WorkItem call(TxnHeader header, String bytes) {
    return WorkItem.newBuilder().setHeader(header.toProto()).setSinglePartition(ProcedureInvocation.newBuilder()
        .setClientId(9).setClientSequence(11).setInvocation(ByteString.copyFromUtf8(bytes))).build();
  }

  private ByteBuffer framed(WorkItem item) {
    final byte[] body = LogFormat.body(item).toByteArray();
    final ByteBuffer buf = ByteBuffer.allocate(LogFormat.frameBytes(body.length) + 16);
    LogFormat.writeFrame(buf, TxnHeader.fromProto(item.getHeader()), LogFormat.kind(item), body, crc);
    return buf.flip();
  }

  @Test
  void aRecordReadsBackAsTheWorkItemItWasWithItsHeader() throws Exception {
    final WorkItem item = call(HEADER, "Vote(5551234, 3)");
    final ByteBuffer buf = framed(item);
    final LogFormat.Frame frame = LogFormat.readFrame(buf, 0, crc);
    assertEquals(item, frame.item());
    assertEquals(buf.limit(), frame.end());
    assertEquals(LogFormat.FRAME_PREFIX + LogFormat.FIXED + LogFormat.body(item).getSerializedSize(),
        buf.getInt(0) + LogFormat.FRAME_PREFIX, "the length counts the bytes after the CRC");
  }

  @Test
  void aMultiPartitionJoinWithASchemaChangeReadsBack() throws Exception {
    final WorkItem item = WorkItem.newBuilder().setHeader(HEADER.toProto()).setMultiPartition(
        MultiPartitionJoin.newBuilder().setCoordinator(new TxnHeader(new TxnId(TxnId.MULTI_PARTITION, 2, 4), 9, 8, 5)
            .toProto()).setSchemaChange(SchemaChange.newBuilder().setDdl("CREATE TABLE t (a INTEGER);")
            .setCatalogVersion(6))).build();
    assertEquals(item, LogFormat.readFrame(framed(item), 0, crc).item());
  }

  @Test
  void aPreparedPartAndItsDecisionReadBack() throws Exception {
    final org.partita.proto.txn.TxnHeader coordinator = new TxnHeader(new TxnId(TxnId.MULTI_PARTITION, 2, 4), 9, 8, 5)
        .toProto();
    final WorkItem part = WorkItem.newBuilder().setHeader(HEADER.toProto()).setMultiPartitionRun(
        org.partita.proto.txn.MultiPartitionRun.newBuilder().setJoin(MultiPartitionJoin.newBuilder()
            .setCoordinator(coordinator)).addBatches(com.google.protobuf.ByteString.copyFromUtf8("batch"))
            .setPrepared(true)).build();
    final WorkItem decision = WorkItem.newBuilder().setHeader(HEADER.toProto()).setDecision(
        org.partita.proto.txn.MultiPartitionDecision.newBuilder().setCoordinator(coordinator).setCommit(true)).build();
    assertEquals(part, LogFormat.readFrame(framed(part), 0, crc).item());
    assertEquals(decision, LogFormat.readFrame(framed(decision), 0, crc).item());
  }

  @Test
  void aCallWrittenFromItsInvocationHasTheBytesOfItsProtobufForm() throws Exception {
    for (long client : new long[] {0, 1, 127, 128, 300, Long.MAX_VALUE, -1}) {
      final org.partita.server.txn.Invocation call = org.partita.server.txn.Invocation.of("Vote",
          new Object[] {6175551234L, 3, "x".repeat((int) (client & 0xFF))}, client, client ^ 0x5A5A);
      final WorkItem item = WorkItem.newBuilder().setHeader(HEADER.toProto()).setSinglePartition(call.toProto())
          .build();
      final ByteBuffer fast = ByteBuffer.allocate(LogFormat.frameBytes(call.protoSize()));
      LogFormat.writeFrame(fast, HEADER, call, crc);
      assertEquals(0, fast.remaining(), "protoSize is exact for client " + client);
      assertEquals(framed(item), fast.flip(), "client " + client);
      assertEquals(item, LogFormat.readFrame(fast, 0, crc).item());
    }
  }

  @Test
  void everyFlippedByteOfARecordIsCaught() {
    final ByteBuffer good = framed(call(HEADER, "some parameters"));
    for (int at = 0; at < good.limit(); at++) {
      final ByteBuffer bad = ByteBuffer.allocate(good.limit());
      bad.put(good.duplicate()).flip();
      bad.put(at, (byte) (bad.get(at) ^ 0x10));
      final int offset = at;
      assertThrows(LogFormat.BadFrame.class, () -> LogFormat.readFrame(bad, 0, crc), "byte " + offset);
    }
  }

  @Test
  void aZeroLengthEndsTheSegmentAndACutRecordIsDamage() throws Exception {
    assertNull(LogFormat.readFrame(ByteBuffer.allocate(100), 0, crc));
    assertNull(LogFormat.readFrame(ByteBuffer.allocate(3), 0, crc));
    final ByteBuffer whole = framed(call(HEADER, "abc"));
    final ByteBuffer cut = whole.duplicate().limit(whole.limit() - 2);
    final LogFormat.BadFrame e = assertThrows(LogFormat.BadFrame.class, () -> LogFormat.readFrame(cut, 0, crc));
    assertTrue(e.getMessage().contains("runs past the end of the file"), e.getMessage());
  }

  @Test
  void aSegmentHeaderReadsBackAndRefusesDamage() throws Exception {
    final ByteBuffer buf = ByteBuffer.allocate(LogFormat.SEGMENT_HEADER_BYTES);
    final LogFormat.SegmentHeader header = new LogFormat.SegmentHeader(12, 3, 4, 0xCAFE, 1234567);
    LogFormat.writeSegmentHeader(buf, header, crc);
    assertEquals(LogFormat.SEGMENT_HEADER_BYTES, buf.position());
    buf.flip();
    assertEquals(header, LogFormat.readSegmentHeader(buf, crc));
    buf.put(17, (byte) 1);
    final LogFormat.BadFrame e = assertThrows(LogFormat.BadFrame.class, () -> LogFormat.readSegmentHeader(buf, crc));
    assertTrue(e.getMessage().contains("CRC32C"), e.getMessage());
    assertThrows(LogFormat.BadFrame.class, () -> LogFormat.readSegmentHeader(ByteBuffer.allocate(10), crc));
  }
}
