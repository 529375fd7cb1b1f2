package org.partita.server.network;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;

/**
 * Decodes {@code ClientMessage{invocation}} frames (proto/client.proto)
 * straight from the socket buffer, without building protobuf message
 * objects: per call it creates only the parameter array, the boxed values
 * and, when the name differs from the previous call's, the procedure name.
 * Follows the protobuf wire format: fields in any order, unknown fields
 * skipped, the last value of a repeated scalar wins. A new kind of
 * parameter value (an unknown field inside a Parameter) is refused for that
 * call rather than read as NULL.
 *
 * <p>Not thread-safe: one per connection, used on its event loop.
 */
final class InvocationDecoder {
  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH_DELIMITED = 2;
  private static final int FIXED32 = 5;
  private static final Object[] NO_PARAMETERS = {};

  private Object[] scratch = new Object[16];
  private byte[] lastNameBytes = new byte[0];
  private String lastName = "";

  /** One decoded invocation. {@code badParameter} is non-null iff a parameter was refused (answer that call). */
  record Call(long handle, String procedure, Object[] parameters, String badParameter) {}

  /** True iff {@code frame} is a ClientMessage holding an invocation (field 2); does not move the reader. */
  static boolean isInvocation(ByteBuf frame) {
    return frame.isReadable() && frame.getByte(frame.readerIndex()) == (ClientMessage.INVOCATION_FIELD_NUMBER << 3
        | LENGTH_DELIMITED);
  }

  /**
   * Decodes the frame's invocation. REQUIRES: {@link #isInvocation}. Throws
   * ProtocolException when the bytes are not a well-formed message.
   */
  Call decode(ByteBuf frame) throws ProtocolException {
    final ByteBuf in = frame.duplicate();
    long handle = 0;
    String procedure = "";
    int count = 0;
    String bad = null;
    while (in.isReadable()) {
      final long tag = readVarint(in);
      if (tag == (ClientMessage.INVOCATION_FIELD_NUMBER << 3 | LENGTH_DELIMITED)) {
        final int end = delimitedEnd(in);
        while (in.readerIndex() < end) {
          final long field = readVarint(in);
          final int number = (int) (field >>> 3);
          final int wireType = (int) (field & 7);
          if (number == Invocation.CLIENT_HANDLE_FIELD_NUMBER && wireType == VARINT) {
            handle = readVarint(in);
          } else if (number == Invocation.PROCEDURE_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
            procedure = name(in, delimitedEnd(in));
          } else if (number == Invocation.PARAMETERS_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
            final int parameterEnd = delimitedEnd(in);
            if (count == scratch.length) {
              scratch = Arrays.copyOf(scratch, count * 2);
            }
            try {
              scratch[count] = parameter(in, parameterEnd, count + 1);
            } catch (BadValue e) {
              bad = bad == null ? "parameter " + (count + 1) + ": " + e.getMessage() : bad;
              in.readerIndex(parameterEnd);
            }
            count++;
          } else {
            skip(in, wireType);
          }
        }
        if (in.readerIndex() != end) {
          throw new ProtocolException("an invocation field runs past its message");
        }
      } else {
        skip(in, (int) (tag & 7));
      }
    }
    final Object[] parameters = count == 0 ? NO_PARAMETERS : Arrays.copyOf(scratch, count);
    Arrays.fill(scratch, 0, count, null);
    return new Call(handle, procedure, parameters, bad == null ? null : procedure + " " + bad);
  }

  /** The procedure name, reusing the previous call's String when the bytes are the same. */
  private String name(ByteBuf in, int end) {
    final int length = end - in.readerIndex();
    if (length == lastNameBytes.length && sameBytes(in, in.readerIndex(), lastNameBytes)) {
      in.readerIndex(end);
      return lastName;
    }
    final byte[] bytes = new byte[length];
    in.readBytes(bytes);
    lastNameBytes = bytes;
    lastName = new String(bytes, StandardCharsets.UTF_8);
    return lastName;
  }

  private static boolean sameBytes(ByteBuf in, int at, byte[] bytes) {
    if (in.writerIndex() - at < bytes.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (in.getByte(at + i) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  /** A refused parameter value; the message says why. */
  private static final class BadValue extends Exception {
    private static final long serialVersionUID = 1L;

    BadValue(String message) {
      super(message, null, false, false);
    }
  }

  private static Object parameter(ByteBuf in, int end, int position) throws ProtocolException, BadValue {
    Object value = null;
    while (in.readerIndex() < end) {
      final long field = readVarint(in);
      final int number = (int) (field >>> 3);
      final int wireType = (int) (field & 7);
      value = switch (number) {
        case Parameter.INTEGER_FIELD_NUMBER -> zigZagDecode(expect(wireType, VARINT, in));
        case Parameter.FLOAT_VALUE_FIELD_NUMBER -> floatValue(in, wireType);
        case Parameter.DECIMAL_FIELD_NUMBER -> decimal(text(in, wireType));
        case Parameter.TEXT_FIELD_NUMBER -> text(in, wireType);
        case Parameter.BINARY_FIELD_NUMBER -> bytes(in, wireType);
        case Parameter.TIMESTAMP_MICROS_FIELD_NUMBER -> timestamp(zigZagDecode(expect(wireType, VARINT, in)));
        default -> throw new BadValue("unsupported kind of value (field " + number + ")");
      };
    }
    if (in.readerIndex() != end) {
      throw new ProtocolException("parameter " + position + " runs past its message");
    }
    return value;
  }

  private static long expect(int wireType, int expected, ByteBuf in) throws ProtocolException {
    if (wireType != expected) {
      throw new ProtocolException("parameter field has wire type " + wireType + ", expected " + expected);
    }
    return readVarint(in);
  }

  private static Long zigZagDecode(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  private static Double floatValue(ByteBuf in, int wireType) throws ProtocolException {
    if (wireType != FIXED64 || in.readableBytes() < 8) {
      throw new ProtocolException("malformed FLOAT parameter");
    }
    return Double.longBitsToDouble(in.readLongLE());
  }

  private static String text(ByteBuf in, int wireType) throws ProtocolException {
    if (wireType != LENGTH_DELIMITED) {
      throw new ProtocolException("malformed text parameter");
    }
    final int end = delimitedEnd(in);
    final String s = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
    in.readerIndex(end);
    return s;
  }

  private static byte[] bytes(ByteBuf in, int wireType) throws ProtocolException {
    if (wireType != LENGTH_DELIMITED) {
      throw new ProtocolException("malformed binary parameter");
    }
    final byte[] b = new byte[delimitedEnd(in) - in.readerIndex()];
    in.readBytes(b);
    return b;
  }

  private static Object decimal(String text) throws BadValue {
    try {
      return InvocationReader.decimal(text);
    } catch (InvocationReader.BadParameterException e) {
      throw new BadValue(e.getMessage());
    }
  }

  private static Instant timestamp(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  /** Reads a length prefix; returns the reader index where that field ends. */
  private static int delimitedEnd(ByteBuf in) throws ProtocolException {
    final long length = readVarint(in);
    if (length < 0 || length > in.readableBytes()) {
      throw new ProtocolException("a field of " + length + " bytes runs past the frame (" + in.readableBytes()
          + " left)");
    }
    return in.readerIndex() + (int) length;
  }

  private static long readVarint(ByteBuf in) throws ProtocolException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!in.isReadable()) {
        throw new ProtocolException("truncated varint");
      }
      final byte b = in.readByte();
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new ProtocolException("malformed varint (more than 10 bytes)");
  }

  private static void skip(ByteBuf in, int wireType) throws ProtocolException {
    switch (wireType) {
      case VARINT -> readVarint(in);
      case FIXED64 -> skipBytes(in, 8);
      case LENGTH_DELIMITED -> in.readerIndex(delimitedEnd(in));
      case FIXED32 -> skipBytes(in, 4);
      default -> throw new ProtocolException("unsupported wire type " + wireType);
    }
  }

  private static void skipBytes(ByteBuf in, int n) throws ProtocolException {
    if (in.readableBytes() < n) {
      throw new ProtocolException("truncated field");
    }
    in.skipBytes(n);
  }
}
