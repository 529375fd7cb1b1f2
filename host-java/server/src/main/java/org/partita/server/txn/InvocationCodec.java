package org.partita.server.txn;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;
import org.partita.server.error.ServerException;

/**
 * Reads an {@code Invocation} message (proto/client.proto) from its bytes
 * without building protobuf objects: the server's one decoder of call
 * parameters. Front ends check the message's structure when it arrives
 * ({@link #scan}) and hand the bytes on; only the site that executes the
 * call turns parameters into values ({@link #parameters}), and the router
 * reads the one parameter that chooses the partition ({@link #parameter}).
 * Follows the protobuf wire format: fields in any order, unknown fields
 * skipped, the last value of a scalar wins. A parameter with an unknown kind
 * of value is refused (BAD_PARAMETER) rather than read as NULL. Stateless.
 */
public final class InvocationCodec {
  private static final int VARINT = 0;
  private static final int FIXED64 = 1;
  private static final int LENGTH_DELIMITED = 2;
  private static final int FIXED32 = 5;
  private static final Object[] NO_PARAMETERS = {};
  /** Largest decimal exponent accepted (FLOAT reaches about 10^308); larger values fit no SQL type. */
  static final int MAX_DECIMAL_EXPONENT = 400;

  private InvocationCodec() {}

  /**
   * What a front end reads of an Invocation before handing it on: the
   * client handle, where the procedure name's UTF-8 bytes are, how many
   * parameters there are and the call's time limit.
   */
  public record Envelope(long handle, int procedureOffset, int procedureLength, int parameterCount,
                         int timeoutMillis) {}

  /**
   * Checks the structure of the Invocation message in {@code in} from its
   * reader index to its writer index and returns its envelope; moves nothing.
   *
   * @throws MalformedInvocationException when the bytes are not a well-formed message
   */
  public static Envelope scan(ByteBuf in) throws MalformedInvocationException {
    // Reads {@code in} itself and restores its reader index: the offsets returned are in its index space (a
    // duplicate of a pooled slice may index the buffer underneath instead).
    final int start = in.readerIndex();
    try {
      return scanFrom(in);
    } finally {
      in.readerIndex(start);
    }
  }

  private static Envelope scanFrom(ByteBuf b) throws MalformedInvocationException {
    long handle = 0;
    int procedureOffset = b.readerIndex();
    int procedureLength = 0;
    int parameters = 0;
    long timeout = 0;
    while (b.isReadable()) {
      final long field = readVarint(b);
      final int number = (int) (field >>> 3);
      final int wireType = (int) (field & 7);
      if (number == Invocation.CLIENT_HANDLE_FIELD_NUMBER && wireType == VARINT) {
        handle = readVarint(b);
      } else if (number == Invocation.PROCEDURE_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
        final int end = delimitedEnd(b);
        procedureOffset = b.readerIndex();
        procedureLength = end - procedureOffset;
        b.readerIndex(end);
      } else if (number == Invocation.PARAMETERS_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
        final int end = delimitedEnd(b);
        checkParameter(b, end, parameters + 1);
        parameters++;
      } else if (number == Invocation.TIMEOUT_MILLIS_FIELD_NUMBER && wireType == VARINT) {
        timeout = readVarint(b);
      } else {
        skip(b, wireType);
      }
    }
    return new Envelope(handle, procedureOffset, procedureLength, parameters,
        (int) Math.min(Math.max(timeout, 0), Integer.MAX_VALUE));
  }

  /** The procedure name of a scanned invocation. */
  public static String procedure(ByteBuf in, Envelope envelope) {
    return in.toString(envelope.procedureOffset(), envelope.procedureLength(), StandardCharsets.UTF_8);
  }

  /**
   * Every parameter of a scanned invocation as a Java value: Long (integers),
   * Double, BigDecimal, String, byte[], Instant (timestamps) or null.
   *
   * @throws ServerException BAD_PARAMETER naming the parameter whose value cannot be used
   */
  public static Object[] parameters(ByteBuf in, int count, String procedure) {
    if (count == 0) {
      return NO_PARAMETERS;
    }
    final Object[] values = new Object[count];
    decode(in.duplicate(), procedure, -1, values);
    return values;
  }

  /**
   * Parameter {@code index} (0-based) of a scanned invocation, as
   * {@link #parameters} would give it; null when there is no such parameter.
   */
  public static Object parameter(ByteBuf in, int index, String procedure) {
    return decode(in.duplicate(), procedure, index, null);
  }

  /** {@link #parameters} of the bytes of a scanned invocation message. */
  static Object[] parameters(byte[] message, int count, String procedure) {
    if (count == 0) {
      return NO_PARAMETERS;
    }
    final Object[] values = new Object[count];
    decode(Unpooled.wrappedBuffer(message), procedure, -1, values);
    return values;
  }

  /** {@link #parameter} of the bytes of a scanned invocation message. */
  static Object parameter(byte[] message, int index, String procedure) {
    return decode(Unpooled.wrappedBuffer(message), procedure, index, null);
  }

  /**
   * Decodes every parameter into {@code into} when {@code only} is negative,
   * else returns parameter {@code only} alone (null when absent). Reads
   * {@code b} from its reader index and moves it: pass a view of your own.
   */
  private static Object decode(ByteBuf b, String procedure, int only, Object[] into) {
    int i = 0;
    try {
      while (b.isReadable()) {
        final long field = readVarint(b);
        if ((int) (field >>> 3) != Invocation.PARAMETERS_FIELD_NUMBER || (int) (field & 7) != LENGTH_DELIMITED) {
          skip(b, (int) (field & 7));
          continue;
        }
        final int end = delimitedEnd(b);
        if (only < 0) {
          into[i] = value(b, end, procedure, i + 1);
        } else if (i == only) {
          return value(b, end, procedure, i + 1);
        } else {
          b.readerIndex(end);
        }
        i++;
      }
    } catch (MalformedInvocationException e) {
      throw new IllegalStateException("an invocation that passed scan() is malformed: " + e.getMessage(), e);
    }
    return null;
  }

  /** Checks one Parameter message's structure (each value field has its wire type). */
  private static void checkParameter(ByteBuf b, int end, int position) throws MalformedInvocationException {
    while (b.readerIndex() < end) {
      final long field = readVarint(b);
      final int wireType = (int) (field & 7);
      switch ((int) (field >>> 3)) {
        case Parameter.INTEGER_FIELD_NUMBER, Parameter.TIMESTAMP_MICROS_FIELD_NUMBER -> expect(wireType, VARINT, b);
        case Parameter.FLOAT_VALUE_FIELD_NUMBER -> {
          if (wireType != FIXED64) {
            throw new MalformedInvocationException("parameter " + position + ": malformed FLOAT");
          }
          skipBytes(b, 8);
        }
        case Parameter.DECIMAL_FIELD_NUMBER, Parameter.TEXT_FIELD_NUMBER, Parameter.BINARY_FIELD_NUMBER -> {
          if (wireType != LENGTH_DELIMITED) {
            throw new MalformedInvocationException("parameter " + position + ": malformed length-delimited value");
          }
          b.readerIndex(delimitedEnd(b));
        }
        default -> skip(b, wireType);
      }
    }
    if (b.readerIndex() != end) {
      throw new MalformedInvocationException("parameter " + position + " runs past its message");
    }
  }

  private static Object value(ByteBuf b, int end, String procedure, int position) throws MalformedInvocationException {
    Object value = null;
    while (b.readerIndex() < end) {
      final long field = readVarint(b);
      final int number = (int) (field >>> 3);
      value = switch (number) {
        case Parameter.INTEGER_FIELD_NUMBER -> zigZagDecode(readVarint(b));
        case Parameter.FLOAT_VALUE_FIELD_NUMBER -> Double.longBitsToDouble(b.readLongLE());
        case Parameter.DECIMAL_FIELD_NUMBER -> decimal(text(b), procedure, position);
        case Parameter.TEXT_FIELD_NUMBER -> text(b);
        case Parameter.BINARY_FIELD_NUMBER -> bytes(b);
        case Parameter.TIMESTAMP_MICROS_FIELD_NUMBER -> timestamp(zigZagDecode(readVarint(b)));
        default -> throw ServerException.badParameter(procedure + " parameter " + position
            + ": unsupported kind of value (field " + number + ")");
      };
    }
    return value;
  }

  private static void expect(int wireType, int expected, ByteBuf b) throws MalformedInvocationException {
    if (wireType != expected) {
      throw new MalformedInvocationException("parameter field has wire type " + wireType + ", expected " + expected);
    }
    readVarint(b);
  }

  private static Long zigZagDecode(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  private static String text(ByteBuf b) throws MalformedInvocationException {
    final int end = delimitedEnd(b);
    final String s = b.toString(b.readerIndex(), end - b.readerIndex(), StandardCharsets.UTF_8);
    b.readerIndex(end);
    return s;
  }

  private static byte[] bytes(ByteBuf b) throws MalformedInvocationException {
    final byte[] out = new byte[delimitedEnd(b) - b.readerIndex()];
    b.readBytes(out);
    return out;
  }

  /**
   * DECIMAL text as a BigDecimal. An exponent beyond {@link #MAX_DECIMAL_EXPONENT}
   * is refused here: such a value fits no SQL type, and rescaling it would
   * take unbounded time and memory.
   */
  static BigDecimal decimal(String text, String procedure, int position) {
    final BigDecimal d;
    try {
      d = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw ServerException.badParameter(procedure + " parameter " + position + ": decimal \"" + abbreviate(text)
          + "\" is not a number");
    }
    if (Math.abs((long) d.precision() - d.scale()) > MAX_DECIMAL_EXPONENT || Math.abs(d.scale()) > MAX_DECIMAL_EXPONENT) {
      throw ServerException.badParameter(procedure + " parameter " + position + ": decimal \"" + abbreviate(text)
          + "\" is out of range");
    }
    return d;
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }

  private static Instant timestamp(long micros) {
    return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
  }

  /** Reads a length prefix; returns the reader index where that field ends. */
  private static int delimitedEnd(ByteBuf b) throws MalformedInvocationException {
    final long length = readVarint(b);
    if (length < 0 || length > b.readableBytes()) {
      throw new MalformedInvocationException("a field of " + length + " bytes runs past the message ("
          + b.readableBytes() + " left)");
    }
    return b.readerIndex() + (int) length;
  }

  private static long readVarint(ByteBuf b) throws MalformedInvocationException {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (!b.isReadable()) {
        throw new MalformedInvocationException("truncated varint");
      }
      final byte x = b.readByte();
      result |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        return result;
      }
    }
    throw new MalformedInvocationException("malformed varint (more than 10 bytes)");
  }

  private static void skip(ByteBuf b, int wireType) throws MalformedInvocationException {
    switch (wireType) {
      case VARINT -> readVarint(b);
      case FIXED64 -> skipBytes(b, 8);
      case LENGTH_DELIMITED -> b.readerIndex(delimitedEnd(b));
      case FIXED32 -> skipBytes(b, 4);
      default -> throw new MalformedInvocationException("unsupported wire type " + wireType);
    }
  }

  private static void skipBytes(ByteBuf b, int n) throws MalformedInvocationException {
    if (b.readableBytes() < n) {
      throw new MalformedInvocationException("truncated field");
    }
    b.skipBytes(n);
  }
}
