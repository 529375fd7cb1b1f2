package org.partita.server.network;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import org.partita.client.proto.ClientMessage;

/**
 * Decodes client frames that are not invocations (logins, and anything
 * unexpected) with the generated protobuf classes, and checks DECIMAL
 * parameter text. Invocations take the allocation-light path of
 * {@link InvocationDecoder}. Stateless.
 */
final class InvocationReader {
  /** Largest decimal exponent accepted (FLOAT reaches about 10^308). */
  static final int MAX_DECIMAL_EXPONENT = 400;

  private InvocationReader() {}

  /** A parameter the server cannot use (e.g. DECIMAL text that is not a number). */
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

  /**
   * DECIMAL text as a BigDecimal. An exponent beyond {@link #MAX_DECIMAL_EXPONENT}
   * is refused here: such a value fits no SQL type, and rescaling it would
   * take unbounded time and memory.
   */
  static BigDecimal decimal(String text) throws BadParameterException {
    final BigDecimal d;
    try {
      d = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new BadParameterException("decimal \"" + abbreviate(text) + "\" is not a number");
    }
    if (Math.abs((long) d.precision() - d.scale()) > MAX_DECIMAL_EXPONENT || Math.abs(d.scale()) > MAX_DECIMAL_EXPONENT) {
      throw new BadParameterException("decimal \"" + abbreviate(text) + "\" is out of range");
    }
    return d;
  }

  private static String abbreviate(String text) {
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }
}
