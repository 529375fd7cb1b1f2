package org.partita.client.internal;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;

/**
 * Encodes one call as a frame of the client protocol (proto/client.proto):
 * a 4-byte big-endian length, then a {@code ClientMessage} whose
 * {@code invocation} is the call. The bytes are exactly those the generated
 * classes would write (fields in number order, proto3 defaults omitted), but
 * written straight into the outgoing buffer, without building a message
 * object per call.
 *
 * <p>Java parameter types and their {@code Parameter} fields: Long, Integer,
 * Short, Byte → integer; Double, Float → float_value; BigDecimal → decimal
 * (plain text); String → text; byte[] → binary; Instant → timestamp_micros;
 * null → no field (SQL NULL). Stateless and thread-safe.
 */
public final class CallEncoder {
  /** Bytes of the big-endian length that precedes every frame. */
  public static final int LENGTH_PREFIX_BYTES = 4;

  private CallEncoder() {}

  /**
   * The encoded size of {@code parameters} as the {@code parameters} field
   * of an Invocation (tags included).
   *
   * @throws IllegalArgumentException naming the position (1-based) and Java
   *     type of the first parameter that has no wire form
   */
  public static int parametersSize(Object[] parameters) {
    int size = 0;
    for (int i = 0; i < parameters.length; i++) {
      final int body = parameterBodySize(parameters[i], i);
      size += CodedOutputStream.computeTagSize(Invocation.PARAMETERS_FIELD_NUMBER)
          + CodedOutputStream.computeUInt32SizeNoTag(body) + body;
    }
    return size;
  }

  /** The encoded size of the Invocation message (no tag, no length). */
  public static int invocationSize(long handle, String procedure, int parametersSize, int routedPlusOne,
      int timeoutMillis) {
    int size = parametersSize;
    if (handle != 0) {
      size += CodedOutputStream.computeUInt64Size(Invocation.CLIENT_HANDLE_FIELD_NUMBER, handle);
    }
    if (!procedure.isEmpty()) {
      size += CodedOutputStream.computeStringSize(Invocation.PROCEDURE_FIELD_NUMBER, procedure);
    }
    if (routedPlusOne != 0) {
      size += CodedOutputStream.computeUInt32Size(Invocation.ROUTED_PARTITION_PLUS_ONE_FIELD_NUMBER, routedPlusOne);
    }
    if (timeoutMillis != 0) {
      size += CodedOutputStream.computeUInt32Size(Invocation.TIMEOUT_MILLIS_FIELD_NUMBER, timeoutMillis);
    }
    return size;
  }

  /** The size of the ClientMessage carrying an Invocation of {@code invocationSize} bytes (the frame's length). */
  public static int messageSize(int invocationSize) {
    return CodedOutputStream.computeTagSize(ClientMessage.INVOCATION_FIELD_NUMBER)
        + CodedOutputStream.computeUInt32SizeNoTag(invocationSize) + invocationSize;
  }

  /**
   * Writes one whole frame: the length prefix, then the ClientMessage.
   * REQUIRES: {@code invocationSize} is {@link #invocationSize} of the same
   * arguments, and the parameters passed {@link #parametersSize}.
   */
  public static void writeFrame(CodedOutputStream out, long handle, String procedure, Object[] parameters,
      int routedPlusOne, int timeoutMillis, int invocationSize) throws IOException {
    final int messageSize = messageSize(invocationSize);
    out.write((byte) (messageSize >>> 24));
    out.write((byte) (messageSize >>> 16));
    out.write((byte) (messageSize >>> 8));
    out.write((byte) messageSize);
    out.writeTag(ClientMessage.INVOCATION_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    out.writeUInt32NoTag(invocationSize);
    writeInvocation(out, handle, procedure, parameters, routedPlusOne, timeoutMillis);
  }

  /**
   * The bytes of an Invocation message (no frame, no ClientMessage around
   * it) calling {@code procedure} with {@code parameters}: what a client
   * would send, for front ends that receive calls in another form (HTTP,
   * in process) and hand the server the same bytes as the binary protocol.
   *
   * @throws IllegalArgumentException naming the first parameter that has no wire form
   */
  public static byte[] invocationBytes(String procedure, Object[] parameters) {
    return invocationBytes(procedure, parameters, 0);
  }

  /** {@link #invocationBytes(String, Object[])} asking for a time limit of {@code timeoutMillis} (0 = none). */
  public static byte[] invocationBytes(String procedure, Object[] parameters, int timeoutMillis) {
    final int size = invocationSize(0, procedure, parametersSize(parameters), 0, timeoutMillis);
    final byte[] bytes = new byte[size];
    final CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      writeInvocation(out, 0, procedure, parameters, 0, timeoutMillis);
      out.checkNoSpaceLeft();
    } catch (IOException e) {
      throw new IllegalStateException("encoding an invocation into an array of its computed size failed", e);
    }
    return bytes;
  }

  private static void writeInvocation(CodedOutputStream out, long handle, String procedure, Object[] parameters,
      int routedPlusOne, int timeoutMillis) throws IOException {
    if (handle != 0) {
      out.writeUInt64(Invocation.CLIENT_HANDLE_FIELD_NUMBER, handle);
    }
    if (!procedure.isEmpty()) {
      out.writeString(Invocation.PROCEDURE_FIELD_NUMBER, procedure);
    }
    for (int i = 0; i < parameters.length; i++) {
      out.writeTag(Invocation.PARAMETERS_FIELD_NUMBER, WireFormat.WIRETYPE_LENGTH_DELIMITED);
      out.writeUInt32NoTag(parameterBodySize(parameters[i], i));
      writeParameterBody(out, parameters[i]);
    }
    if (routedPlusOne != 0) {
      out.writeUInt32(Invocation.ROUTED_PARTITION_PLUS_ONE_FIELD_NUMBER, routedPlusOne);
    }
    if (timeoutMillis != 0) {
      out.writeUInt32(Invocation.TIMEOUT_MILLIS_FIELD_NUMBER, timeoutMillis);
    }
  }

  /** Microseconds since the epoch of {@code instant}. @throws ArithmeticException when out of range */
  public static long micros(Instant instant) {
    return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
  }

  private static int parameterBodySize(Object value, int index) {
    if (value == null) {
      return 0;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return CodedOutputStream.computeSInt64Size(Parameter.INTEGER_FIELD_NUMBER, ((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      return CodedOutputStream.computeDoubleSize(Parameter.FLOAT_VALUE_FIELD_NUMBER, 0);
    }
    if (value instanceof String s) {
      return CodedOutputStream.computeStringSize(Parameter.TEXT_FIELD_NUMBER, s);
    }
    if (value instanceof byte[] b) {
      return CodedOutputStream.computeTagSize(Parameter.BINARY_FIELD_NUMBER)
          + CodedOutputStream.computeUInt32SizeNoTag(b.length) + b.length;
    }
    if (value instanceof BigDecimal d) {
      return CodedOutputStream.computeStringSize(Parameter.DECIMAL_FIELD_NUMBER, d.toPlainString());
    }
    if (value instanceof Instant t) {
      return CodedOutputStream.computeSInt64Size(Parameter.TIMESTAMP_MICROS_FIELD_NUMBER, checkedMicros(t, index));
    }
    throw new IllegalArgumentException("parameter " + (index + 1) + " is a " + value.getClass().getName()
        + "; parameters must be Long, Integer, Short, Byte, Double, Float, BigDecimal, String, byte[],"
        + " java.time.Instant or null");
  }

  private static void writeParameterBody(CodedOutputStream out, Object value) throws IOException {
    if (value == null) {
      return;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      out.writeSInt64(Parameter.INTEGER_FIELD_NUMBER, ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      out.writeDouble(Parameter.FLOAT_VALUE_FIELD_NUMBER, ((Number) value).doubleValue());
    } else if (value instanceof String s) {
      out.writeString(Parameter.TEXT_FIELD_NUMBER, s);
    } else if (value instanceof byte[] b) {
      out.writeByteArray(Parameter.BINARY_FIELD_NUMBER, b);
    } else if (value instanceof BigDecimal d) {
      out.writeString(Parameter.DECIMAL_FIELD_NUMBER, d.toPlainString());
    } else if (value instanceof Instant t) {
      out.writeSInt64(Parameter.TIMESTAMP_MICROS_FIELD_NUMBER, micros(t));
    } else {
      throw new IllegalStateException("parameter of type " + value.getClass().getName() + " passed parametersSize");
    }
  }

  private static long checkedMicros(Instant t, int index) {
    try {
      return micros(t);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("parameter " + (index + 1) + " (java.time.Instant " + t
          + ") is outside the TIMESTAMP range of 64-bit microseconds since 1970", e);
    }
  }
}
