package org.partita.server.txn;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;
import org.partita.server.error.ServerException;

/**
 * Reads an {@code Invocation} message (proto/client.proto) from its bytes
 * without building protobuf objects: the server's one decoder of call
 * parameters. Front ends copy the message out of their frame, check its structure
 * ({@link #scan}) and hand the bytes on; only the site that executes the
 * call turns parameters into values ({@link #parameters}), and the router
 * reads the one parameter that chooses the partition ({@link #parameter}).
 * Follows the protobuf wire format: fields in any order, unknown fields
 * skipped, the last value of a scalar wins. A parameter with an unknown kind
 * of value is refused (BAD_PARAMETER) rather than read as NULL. Stateless
 * apart from one reusable read position per thread (nothing per call).
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

  // Each thread's read position: decoding makes no object per call (a Reader per call was not optimized away).
  private static final ThreadLocal<Reader> READERS = ThreadLocal.withInitial(Reader::new);

  /**
   * What a front end reads of an Invocation before handing it on: the
   * client handle, where the procedure name's UTF-8 bytes are, how many
   * parameters there are and the call's time limit. Filled by {@link #scan};
   * a front end may keep one and have {@link #scan(byte[], Envelope)} refill
   * it for each call (then it is confined to that front end's thread).
   */
  public static final class Envelope {
    private long handle;
    private int procedureOffset;
    private int procedureLength;
    private int parameterCount;
    private int timeoutMillis;

    public long handle() {
      return handle;
    }

    public int procedureOffset() {
      return procedureOffset;
    }

    public int procedureLength() {
      return procedureLength;
    }

    public int parameterCount() {
      return parameterCount;
    }

    /** The time limit asked for, in ms, clamped to 0..Integer.MAX_VALUE (0 = the server's default). */
    public int timeoutMillis() {
      return timeoutMillis;
    }
  }

  /**
   * Checks the structure of the Invocation message {@code message} (all its
   * bytes) and returns its envelope.
   *
   * @throws MalformedInvocationException when the bytes are not a well-formed message
   */
  public static Envelope scan(byte[] message) throws MalformedInvocationException {
    return scan(message, new Envelope());
  }

  /**
   * {@link #scan(byte[])} into {@code into} (a caller's reused envelope);
   * returns it. On failure {@code into} holds nothing useful.
   *
   * @throws MalformedInvocationException when the bytes are not a well-formed message
   */
  public static Envelope scan(byte[] message, Envelope into) throws MalformedInvocationException {
    final Reader b = Reader.on(message);
    try {
      scan(b, into);
    } finally {
      b.done();
    }
    return into;
  }

  private static void scan(Reader b, Envelope into) throws MalformedInvocationException {
    long handle = 0;
    int procedureOffset = 0;
    int procedureLength = 0;
    int parameters = 0;
    long timeout = 0;
    while (b.isReadable()) {
      final long field = b.readVarint();
      final int number = (int) (field >>> 3);
      final int wireType = (int) (field & 7);
      if (number == Invocation.CLIENT_HANDLE_FIELD_NUMBER && wireType == VARINT) {
        handle = b.readVarint();
      } else if (number == Invocation.PROCEDURE_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
        final int end = b.delimitedEnd();
        procedureOffset = b.position;
        procedureLength = end - procedureOffset;
        b.position = end;
      } else if (number == Invocation.PARAMETERS_FIELD_NUMBER && wireType == LENGTH_DELIMITED) {
        final int end = b.delimitedEnd();
        checkParameter(b, end, parameters + 1);
        parameters++;
      } else if (number == Invocation.TIMEOUT_MILLIS_FIELD_NUMBER && wireType == VARINT) {
        timeout = b.readVarint();
      } else {
        skip(b, wireType);
      }
    }
    into.handle = handle;
    into.procedureOffset = procedureOffset;
    into.procedureLength = procedureLength;
    into.parameterCount = parameters;
    into.timeoutMillis = (int) Math.min(Math.max(timeout, 0), Integer.MAX_VALUE);
  }

  /** The procedure name of a scanned invocation. */
  public static String procedure(byte[] message, Envelope envelope) {
    return new String(message, envelope.procedureOffset(), envelope.procedureLength(), StandardCharsets.UTF_8);
  }

  /**
   * Every parameter of a scanned invocation message as a Java value: Long
   * (integers), Double, BigDecimal, String, byte[], Instant (timestamps) or
   * null. Reads the array in place (no buffer object around it).
   *
   * @throws ServerException BAD_PARAMETER naming the parameter whose value cannot be used
   */
  static Object[] parameters(byte[] message, int count, String procedure) {
    if (count == 0) {
      return NO_PARAMETERS;
    }
    final Object[] values = new Object[count];
    decode(message, procedure, -1, values);
    return values;
  }

  /**
   * {@link #parameters} decoded into {@code into} (no array is made).
   * REQUIRES: {@code into} has one element per parameter.
   */
  static void parametersInto(byte[] message, Object[] into, String procedure) {
    decode(message, procedure, -1, into);
  }

  /**
   * Parameter {@code index} (0-based) of a scanned invocation message, as
   * {@link #parameters} would give it; null when there is no such parameter.
   */
  static Object parameter(byte[] message, int index, String procedure) {
    return decode(message, procedure, index, null);
  }

  /**
   * Where parameter {@code index} (0-based) of a scanned invocation message
   * holds an integer: the offset of its value, for {@link #integerAt}; -1
   * when the parameter is absent or holds another kind of value (or none).
   * The router reads an integer partitioning value this way without boxing
   * it; anything else it reads with {@link #parameter}, which also names
   * what is wrong with a value it cannot use.
   */
  static int integerParameterAt(byte[] message, int index) {
    final Reader b = Reader.on(message);
    try {
      if (!skipToParameter(b, index)) {
        return -1;
      }
      final int end = b.delimitedEnd();
      int at = -1;
      while (b.position < end) {  // the last value field wins, as in value()
        final long field = b.readVarint();
        at = (int) (field >>> 3) == Parameter.INTEGER_FIELD_NUMBER && (int) (field & 7) == VARINT ? b.position : -1;
        skip(b, (int) (field & 7));
      }
      return at;
    } catch (MalformedInvocationException e) {
      throw new IllegalStateException("an invocation that passed scan() is malformed: " + e.getMessage(), e);
    } finally {
      b.done();
    }
  }

  /** The integer at {@code offset}, which {@link #integerParameterAt} gave for {@code message}. */
  static long integerAt(byte[] message, int offset) {
    final Reader b = Reader.on(message);
    try {
      b.position = offset;
      final long v = b.readVarint();
      return (v >>> 1) ^ -(v & 1);
    } catch (MalformedInvocationException e) {
      throw new IllegalStateException("no integer at offset " + offset + " of a scanned invocation", e);
    } finally {
      b.done();
    }
  }

  /**
   * Moves {@code b} to the length prefix of parameter {@code index}; false
   * when the message has no such parameter.
   */
  private static boolean skipToParameter(Reader b, int index) throws MalformedInvocationException {
    int i = 0;
    while (b.isReadable()) {
      final long field = b.readVarint();
      if ((int) (field >>> 3) != Invocation.PARAMETERS_FIELD_NUMBER || (int) (field & 7) != LENGTH_DELIMITED) {
        skip(b, (int) (field & 7));
      } else if (i++ == index) {
        return true;
      } else {
        b.position = b.delimitedEnd();
      }
    }
    return false;
  }

  private static Object decode(byte[] message, String procedure, int only, Object[] into) {
    final Reader b = Reader.on(message);
    try {
      return decode(b, procedure, only, into);
    } finally {
      b.done();
    }
  }

  /**
   * Decodes every parameter into {@code into} when {@code only} is negative,
   * else returns parameter {@code only} alone (null when absent).
   */
  private static Object decode(Reader b, String procedure, int only, Object[] into) {
    int i = 0;
    try {
      while (b.isReadable()) {
        final long field = b.readVarint();
        if ((int) (field >>> 3) != Invocation.PARAMETERS_FIELD_NUMBER || (int) (field & 7) != LENGTH_DELIMITED) {
          skip(b, (int) (field & 7));
          continue;
        }
        final int end = b.delimitedEnd();
        if (only < 0) {
          into[i] = value(b, end, procedure, i + 1);
        } else if (i == only) {
          return value(b, end, procedure, i + 1);
        } else {
          b.position = end;
        }
        i++;
      }
    } catch (MalformedInvocationException e) {
      throw new IllegalStateException("an invocation that passed scan() is malformed: " + e.getMessage(), e);
    }
    return null;
  }

  /** Checks one Parameter message's structure (each value field has its wire type). */
  private static void checkParameter(Reader b, int end, int position) throws MalformedInvocationException {
    while (b.position < end) {
      final long field = b.readVarint();
      final int wireType = (int) (field & 7);
      switch ((int) (field >>> 3)) {
        case Parameter.INTEGER_FIELD_NUMBER, Parameter.TIMESTAMP_MICROS_FIELD_NUMBER -> expect(wireType, VARINT, b);
        case Parameter.FLOAT_VALUE_FIELD_NUMBER -> {
          if (wireType != FIXED64) {
            throw new MalformedInvocationException("parameter " + position + ": malformed FLOAT");
          }
          b.skipBytes(8);
        }
        case Parameter.DECIMAL_FIELD_NUMBER, Parameter.TEXT_FIELD_NUMBER, Parameter.BINARY_FIELD_NUMBER -> {
          if (wireType != LENGTH_DELIMITED) {
            throw new MalformedInvocationException("parameter " + position + ": malformed length-delimited value");
          }
          b.position = b.delimitedEnd();
        }
        default -> skip(b, wireType);
      }
    }
    if (b.position != end) {
      throw new MalformedInvocationException("parameter " + position + " runs past its message");
    }
  }

  private static Object value(Reader b, int end, String procedure, int position) throws MalformedInvocationException {
    Object value = null;
    while (b.position < end) {
      final long field = b.readVarint();
      final int number = (int) (field >>> 3);
      value = switch (number) {
        case Parameter.INTEGER_FIELD_NUMBER -> zigZagDecode(b.readVarint());
        case Parameter.FLOAT_VALUE_FIELD_NUMBER -> Double.longBitsToDouble(b.readLongLE());
        case Parameter.DECIMAL_FIELD_NUMBER -> decimal(b.text(), procedure, position);
        case Parameter.TEXT_FIELD_NUMBER -> b.text();
        case Parameter.BINARY_FIELD_NUMBER -> b.bytes();
        case Parameter.TIMESTAMP_MICROS_FIELD_NUMBER -> timestamp(zigZagDecode(b.readVarint()));
        default -> throw ServerException.badParameter(procedure + " parameter " + position
            + ": unsupported kind of value (field " + number + ")");
      };
    }
    return value;
  }

  private static void expect(int wireType, int expected, Reader b) throws MalformedInvocationException {
    if (wireType != expected) {
      throw new MalformedInvocationException("parameter field has wire type " + wireType + ", expected " + expected);
    }
    b.readVarint();
  }

  // Long.valueOf keeps -128..127 cached: small integers (counts, codes, flags) box without allocating.
  private static Long zigZagDecode(long v) {
    return Long.valueOf((v >>> 1) ^ -(v & 1));
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

  private static void skip(Reader b, int wireType) throws MalformedInvocationException {
    switch (wireType) {
      case VARINT -> b.readVarint();
      case FIXED64 -> b.skipBytes(8);
      case LENGTH_DELIMITED -> b.position = b.delimitedEnd();
      case FIXED32 -> b.skipBytes(4);
      default -> throw new MalformedInvocationException("unsupported wire type " + wireType);
    }
  }

  /**
   * A read position in a message's bytes, every read bounds-checked against
   * the array's end. One per thread ({@link #on}), used by one decode at a
   * time: nothing in a decode starts another.
   */
  private static final class Reader {
    private static final byte[] NONE = {};
    private byte[] bytes = NONE;
    private int position;

    /** The calling thread's reader, at the start of {@code message}. Give it back with {@link #done}. */
    static Reader on(byte[] message) {
      final Reader r = READERS.get();
      if (r.bytes != NONE) {
        throw new IllegalStateException("a decode started inside another on the same thread");
      }
      r.bytes = message;
      r.position = 0;
      return r;
    }

    /** Drops the message, so that a thread's reader does not keep a large one alive. */
    void done() {
      bytes = NONE;
    }

    boolean isReadable() {
      return position < bytes.length;
    }

    int remaining() {
      return bytes.length - position;
    }

    long readVarint() throws MalformedInvocationException {
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (position >= bytes.length) {
          throw new MalformedInvocationException("truncated varint");
        }
        final byte x = bytes[position++];
        result |= (long) (x & 0x7F) << shift;
        if (x >= 0) {
          return result;
        }
      }
      throw new MalformedInvocationException("malformed varint (more than 10 bytes)");
    }

    /** Reads a length prefix; returns the position where that field ends. */
    int delimitedEnd() throws MalformedInvocationException {
      final long length = readVarint();
      if (length < 0 || length > remaining()) {
        throw new MalformedInvocationException("a field of " + length + " bytes runs past the message ("
            + remaining() + " left)");
      }
      return position + (int) length;
    }

    void skipBytes(int n) throws MalformedInvocationException {
      if (remaining() < n) {
        throw new MalformedInvocationException("truncated field");
      }
      position += n;
    }

    long readLongLE() throws MalformedInvocationException {
      skipBytes(Long.BYTES);
      long v = 0;
      for (int i = 1; i <= Long.BYTES; i++) {
        v = (v << 8) | (bytes[position - i] & 0xFFL);
      }
      return v;
    }

    String text() throws MalformedInvocationException {
      final int end = delimitedEnd();
      final String s = new String(bytes, position, end - position, StandardCharsets.UTF_8);
      position = end;
      return s;
    }

    byte[] bytes() throws MalformedInvocationException {
      final int end = delimitedEnd();
      final byte[] out = java.util.Arrays.copyOfRange(bytes, position, end);
      position = end;
      return out;
    }
  }
}
