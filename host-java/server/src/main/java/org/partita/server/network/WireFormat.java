package org.partita.server.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * The few protobuf wire-format primitives the response writer needs to
 * write {@code InvocationResponse} by hand (so result tables are copied
 * straight from the engine's bytes into the socket buffer). See
 * protobuf's encoding guide: tags are {@code field << 3 | wire type},
 * varints are little-endian base 128. Stateless.
 */
final class WireFormat {
  static final int VARINT = 0;
  static final int LENGTH_DELIMITED = 2;

  private WireFormat() {}

  static int tag(int field, int wireType) {
    return field << 3 | wireType;
  }

  static int varintSize(long value) {
    return value == 0 ? 1 : (64 - Long.numberOfLeadingZeros(value) + 6) / 7;
  }

  static void writeVarint(ByteBuf out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  static long zigZag(long value) {
    return (value << 1) ^ (value >> 63);
  }

  /** Size of a varint field, or 0 when {@code value} is 0 (proto3 omits defaults). */
  static int varintFieldSize(int field, long value) {
    return value == 0 ? 0 : varintSize(tag(field, VARINT)) + varintSize(value);
  }

  static void writeVarintField(ByteBuf out, int field, long value) {
    if (value != 0) {
      writeVarint(out, tag(field, VARINT));
      writeVarint(out, value);
    }
  }

  /** Size of a length-delimited field whose payload is {@code length} bytes. */
  static int delimitedFieldSize(int field, int length) {
    return varintSize(tag(field, LENGTH_DELIMITED)) + varintSize(length) + length;
  }

  /** Size of a string field, or 0 when empty. */
  static int stringFieldSize(int field, String text) {
    return text.isEmpty() ? 0 : delimitedFieldSize(field, ByteBufUtil.utf8Bytes(text));
  }

  static void writeStringField(ByteBuf out, int field, String text) {
    if (!text.isEmpty()) {
      writeVarint(out, tag(field, LENGTH_DELIMITED));
      writeVarint(out, ByteBufUtil.utf8Bytes(text));
      ByteBufUtil.writeUtf8(out, text);
    }
  }

  static void writeDelimitedHeader(ByteBuf out, int field, int length) {
    writeVarint(out, tag(field, LENGTH_DELIMITED));
    writeVarint(out, length);
  }
}
