package org.partita.server.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.junit.jupiter.api.Test;

class OutboundFramesTest {
  private static ByteBuffer direct(int size, byte fill) {
    final ByteBuffer b = ByteBuffer.allocateDirect(size);
    for (int i = 0; i < size; i++) {
      b.put(i, (byte) (fill + i));
    }
    return b;
  }

  @Test
  void shouldCopySmallTablesIntoOneSegment() {
    final OutboundFrames frames = new OutboundFrames(PooledByteBufAllocator.DEFAULT);
    frames.segment().writeInt(7);
    final ByteBuffer table = direct(OutboundFrames.COPY_LIMIT, (byte) 1);
    frames.addTable(table);
    table.put(0, (byte) 99);  // a copy does not see later changes
    final ByteBuf out = frames.finish();
    try {
      assertFalse(out instanceof CompositeByteBuf);
      assertEquals(4 + OutboundFrames.COPY_LIMIT, out.readableBytes());
      assertEquals(7, out.getInt(0));
      assertEquals(1, out.getByte(4));
    } finally {
      out.release();
    }
  }

  @Test
  void shouldGatherLargeDirectTablesInPlaceAndKeepOrder() {
    final OutboundFrames frames = new OutboundFrames(PooledByteBufAllocator.DEFAULT);
    frames.segment().writeByte(1);
    final ByteBuffer large = direct(OutboundFrames.COPY_LIMIT + 2, (byte) 10);
    large.position(1);  // only the remaining bytes count, and the position is left alone
    frames.addTable(large);
    assertEquals(1, large.position());
    frames.segment().writeByte(2);
    assertEquals(1 + OutboundFrames.COPY_LIMIT + 1 + 1, frames.size());
    large.put(1, (byte) 99);  // gathered in place: the flush sends what the memory holds
    final ByteBuf out = frames.finish();
    try {
      assertTrue(out instanceof CompositeByteBuf);
      final byte[] bytes = ByteBufUtil.getBytes(out);
      assertEquals(1 + OutboundFrames.COPY_LIMIT + 1 + 1, bytes.length);
      assertEquals(1, bytes[0]);
      assertEquals(99, bytes[1]);
      assertEquals((byte) (10 + 2), bytes[2]);
      assertEquals(2, bytes[bytes.length - 1]);
    } finally {
      out.release();
    }
  }

  @Test
  void shouldCopyASmallResultTableAfterWhatTheSegmentHolds() {
    final ResultTable table = new ResultTableBuilder().column("N", ValueType.BIGINT).row(42L).row(7L).build();
    table.advanceRow();
    final OutboundFrames frames = new OutboundFrames(PooledByteBufAllocator.DEFAULT);
    frames.segment().writeByte(5);
    frames.addTable(table);
    frames.segment().writeByte(6);
    final ByteBuf out = frames.finish();
    try {
      final byte[] bytes = ByteBufUtil.getBytes(out);
      final ByteBuffer expected = table.bytes();
      assertEquals(1 + expected.remaining() + 1, bytes.length);
      assertEquals(5, bytes[0]);
      for (int i = 0; i < expected.remaining(); i++) {
        assertEquals(expected.get(expected.position() + i), bytes[1 + i], "byte " + i);
      }
      assertEquals(6, bytes[bytes.length - 1]);
      assertEquals(42L, table.getLong(0));  // the table's cursor is where it was
    } finally {
      out.release();
    }
  }

  @Test
  void shouldGrowTheSegmentForAResultTableThatDoesNotFit() {
    final ResultTableBuilder builder = new ResultTableBuilder().column("N", ValueType.BIGINT);
    for (long i = 0; i < 100; i++) {
      builder.row(i);
    }
    final ResultTable table = builder.build();
    final OutboundFrames frames = new OutboundFrames(PooledByteBufAllocator.DEFAULT);
    final byte[] filler = new byte[4096 - 10];
    frames.segment().writeBytes(filler);
    frames.addTable(table);
    final ByteBuf out = frames.finish();
    try {
      assertFalse(out instanceof CompositeByteBuf);
      assertEquals(filler.length + table.byteSize(), out.readableBytes());
      final ByteBuffer expected = table.bytes();
      assertEquals(expected.get(expected.limit() - 1), out.getByte(out.readableBytes() - 1));
    } finally {
      out.release();
    }
  }

  @Test
  void shouldCopyLargeHeapTables() {
    final OutboundFrames frames = new OutboundFrames(PooledByteBufAllocator.DEFAULT);
    final ByteBuffer heap = ByteBuffer.allocate(OutboundFrames.COPY_LIMIT * 2);
    frames.addTable(heap);
    final ByteBuf out = frames.finish();
    try {
      assertFalse(out instanceof CompositeByteBuf);
      assertEquals(OutboundFrames.COPY_LIMIT * 2, out.readableBytes());
    } finally {
      out.release();
    }
  }
}
