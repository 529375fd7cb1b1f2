package org.partita.server.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import org.partita.client.ResultTable;

/**
 * The bytes of one flush of answers, built without copying large result
 * tables a second time. Frame fields go into the current segment, a pooled
 * direct buffer; a result table of up to {@link #COPY_LIMIT} bytes is
 * copied into it too (cheaper than a gather entry of its own), while a
 * larger table that already sits in direct memory (the site's copy of the
 * engine's output) is added by reference, so the socket write gathers it in
 * place. The result is one buffer for one write and flush.
 *
 * <p>Event-loop confined; one instance per flush.
 */
final class OutboundFrames {
  /** Tables up to this many bytes are copied into the segment. */
  static final int COPY_LIMIT = 2048;
  private static final int SEGMENT_BYTES = 4096;

  private final ByteBufAllocator allocator;
  private CompositeByteBuf frames;
  private ByteBuf segment;

  OutboundFrames(ByteBufAllocator allocator) {
    this.allocator = allocator;
    this.segment = allocator.directBuffer(SEGMENT_BYTES);
  }

  /** Where frame fields are written. Valid until the next {@link #addTable}. */
  ByteBuf segment() {
    return segment;
  }

  /**
   * Appends {@code table}'s bytes ({@link ResultTable#bytes}). One of up to
   * {@link #COPY_LIMIT} bytes is copied straight into the segment, with no
   * view of it made (the answer path's common case: no object per table);
   * a larger one goes through {@link #addTable(ByteBuffer)}.
   */
  void addTable(ResultTable table) {
    final int size = table.byteSize();
    if (size > COPY_LIMIT || segment.nioBufferCount() != 1) {
      addTable(table.bytes());
      return;
    }
    segment.ensureWritable(size);
    final int at = segment.writerIndex();
    final ByteBuffer target = segment.internalNioBuffer(at, size);
    table.copyTo(target, target.position());
    segment.writerIndex(at + size);
  }

  /**
   * Appends a result table's bytes (its remaining bytes). Takes {@code table}
   * over: its position may move, and a large direct one is kept until the
   * write (pass a view of your own, as {@code ResultTable#bytes} gives).
   */
  void addTable(ByteBuffer table) {
    if (table.remaining() <= COPY_LIMIT || !table.isDirect()) {
      segment.writeBytes(table);
      return;
    }
    if (frames == null) {
      frames = allocator.compositeDirectBuffer(Integer.MAX_VALUE);
    }
    frames.addComponent(true, segment);
    frames.addComponent(true, Unpooled.wrappedBuffer(table));
    segment = allocator.directBuffer(SEGMENT_BYTES);
  }

  /** Bytes appended so far. */
  int size() {
    return (frames == null ? 0 : frames.readableBytes()) + segment.readableBytes();
  }

  /** The whole flush; the caller owns it (writing it releases it). This instance is done. */
  ByteBuf finish() {
    if (frames == null) {
      return segment;
    }
    frames.addComponent(true, segment);
    return frames;
  }

  /** Releases everything (nothing is written). This instance is done. */
  void discard() {
    finish().release();
  }
}
