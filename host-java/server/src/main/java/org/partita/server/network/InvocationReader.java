package org.partita.server.network;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Parameter;

/**
 * Decodes client frames (proto/client.proto) and turns invocation
 * parameters into the Java values procedures take: Long, Double,
 * BigDecimal, String, byte[], Instant or null. Stateless.
 */
final class InvocationReader {
  /** Largest decimal exponent accepted (FLOAT reaches about 10^308). */
  static final int MAX_DECIMAL_EXPONENT = 400;

  private InvocationReader() {}

  /** A parameter the server cannot use (e.g. DECIMAL text that is not a number); answered per call. */
  static final class BadParameterException extends Exception {
    private static final long serialVersionUID = 1L;

    BadParameterException(String message) {
      super(message, null, false, false);
    }
  }

  /** Parses one frame's bytes (length prefix already removed). */
  static ClientMessage parse(ByteBuf frame) throws ProtocolException {
    try {
      return ClientMessage.parseFrom(frame.nioBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw new ProtocolException("undecodable frame of " + frame.readableBytes() + " bytes: " + e.getMessage());
    }
  }

  /** The invocation's parameters as Java values. */
  static Object[] parameters(String procedure, List<Parameter> parameters) throws BadParameterException {
    final Object[] values = new Object[parameters.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = value(procedure, parameters.get(i), i + 1);
    }
    return values;
  }

  private static Object value(String procedure, Parameter p, int position) throws BadParameterException {
    switch (p.getValueCase()) {
      case INTEGER:
        return p.getInteger();
      case FLOAT_VALUE:
        return p.getFloatValue();
      case DECIMAL:
        return decimal(procedure, p.getDecimal(), position);
      case TEXT:
        return p.getText();
      case BINARY:
        return p.getBinary().toByteArray();
      case TIMESTAMP_MICROS:
        final long micros = p.getTimestampMicros();
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
      case VALUE_NOT_SET:
        return null;
      default:
        throw new BadParameterException(procedure + " parameter " + position + ": unknown value kind");
    }
  }

  /**
   * DECIMAL text as a BigDecimal. An exponent beyond {@link #MAX_DECIMAL_EXPONENT}
   * is refused here: such a value fits no SQL type, and rescaling it would
   * take unbounded time and memory.
   */
  private static BigDecimal decimal(String procedure, String text, int position) throws BadParameterException {
    final BigDecimal d;
    try {
      d = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new BadParameterException(procedure + " parameter " + position + ": decimal \"" + abbreviate(text)
          + "\" is not a number");
    }
    if (Math.abs((long) d.precision() - d.scale()) > MAX_DECIMAL_EXPONENT || Math.abs(d.scale()) > MAX_DECIMAL_EXPONENT) {
      throw new BadParameterException(procedure + " parameter " + position + ": decimal \"" + abbreviate(text)
          + "\" is out of range");
    }
    return d;
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }
}
