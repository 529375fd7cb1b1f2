package org.partita.server.database;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import org.partita.proto.ValueType;
import org.partita.server.engine.BatchRequestWriter;

/**
 * Converts call parameters (docs/procedures.md, "Parameters"): widening is
 * allowed (an int for a BIGINT, a long for a DOUBLE when exact), anything
 * that would lose information is rejected with a message naming the
 * parameter. Stateless.
 */
final class ParameterConverter {
  private ParameterConverter() {}

  /** Rejected parameter. */
  static final class BadParameterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadParameterException(String message) {
      super(message, null, false, false);
    }
  }

  /** Writes {@code value} as a statement parameter of type {@code type}. */
  static void write(BatchRequestWriter writer, Object value, ValueType type, String what) {
    if (value == null) {
      writer.addNull();
      return;
    }
    switch (type) {
      case VALUE_TYPE_TINYINT, VALUE_TYPE_SMALLINT, VALUE_TYPE_INTEGER, VALUE_TYPE_BIGINT ->
          writer.addBigInt(exactLong(value, what));
      case VALUE_TYPE_FLOAT -> writer.addFloat(exactDouble(value, what));
      case VALUE_TYPE_DECIMAL -> writer.addDecimal(decimal(value, what));
      case VALUE_TYPE_VARCHAR -> {
        if (!(value instanceof String s)) {
          throw mismatch(value, type, what);
        }
        writer.addVarchar(s);
      }
      case VALUE_TYPE_VARBINARY -> {
        if (!(value instanceof byte[] b)) {
          throw mismatch(value, type, what);
        }
        writer.addVarbinary(b);
      }
      case VALUE_TYPE_TIMESTAMP -> writer.addTimestamp(timestampMicros(value, what));
      default -> throw mismatch(value, type, what);
    }
  }

  static long exactLong(Object value, String what) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal d) {
      try {
        return d.longValueExact();
      } catch (ArithmeticException e) {
        throw new BadParameterException(what + ": " + d.toPlainString() + " is not an integer in BIGINT range");
      }
    }
    if (value instanceof BigInteger b && b.bitLength() < 64) {
      return b.longValue();
    }
    if (value instanceof Double || value instanceof Float) {
      final double d = ((Number) value).doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 0x1p63) {
        return (long) d;
      }
      throw new BadParameterException(what + ": " + d + " is not an integer");
    }
    throw mismatch(value, ValueType.VALUE_TYPE_BIGINT, what);
  }

  private static double exactDouble(Object value, String what) {
    if (value instanceof Double || value instanceof Float) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof BigDecimal d) {
      return d.doubleValue();
    }
    final long l = exactLong(value, what);
    final double d = (double) l;
    if ((long) d != l) {
      throw new BadParameterException(what + ": " + l + " cannot be represented exactly as a FLOAT");
    }
    return d;
  }

  private static BigDecimal decimal(Object value, String what) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof Double || value instanceof Float) {
      return BigDecimal.valueOf(((Number) value).doubleValue());
    }
    return BigDecimal.valueOf(exactLong(value, what));
  }

  static long timestampMicros(Object value, String what) {
    if (value instanceof Instant i) {
      return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    }
    return exactLong(value, what);
  }

  private static BadParameterException mismatch(Object value, ValueType type, String what) {
    return new BadParameterException(what + ": a " + value.getClass().getSimpleName() + " cannot be a "
        + type.name().substring("VALUE_TYPE_".length()));
  }

  /** The canonical partitioning value of {@code value} for a column of {@code type} (PartitionHash). */
  static Object partitionValue(Object value, ValueType type, String what) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case VALUE_TYPE_VARCHAR -> {
        if (!(value instanceof String)) {
          throw mismatch(value, type, what);
        }
        yield value;
      }
      case VALUE_TYPE_VARBINARY -> {
        if (!(value instanceof byte[])) {
          throw mismatch(value, type, what);
        }
        yield value;
      }
      case VALUE_TYPE_TIMESTAMP -> timestampMicros(value, what);
      default -> exactLong(value, what);
    };
  }

  /** Converts a call argument to the Java type of a run() parameter. */
  static Object argument(Object value, Class<?> type, String what) {
    if (value == null) {
      if (type.isPrimitive()) {
        throw new BadParameterException(what + ": NULL for a " + type.getSimpleName());
      }
      return null;
    }
    if (type == long.class || type == Long.class) {
      return exactLong(value, what);
    }
    if (type == int.class || type == Integer.class) {
      return (int) inRange(exactLong(value, what), Integer.MIN_VALUE, Integer.MAX_VALUE, what);
    }
    if (type == short.class || type == Short.class) {
      return (short) inRange(exactLong(value, what), Short.MIN_VALUE, Short.MAX_VALUE, what);
    }
    if (type == byte.class || type == Byte.class) {
      return (byte) inRange(exactLong(value, what), Byte.MIN_VALUE, Byte.MAX_VALUE, what);
    }
    if (type == double.class || type == Double.class) {
      return exactDouble(value, what);
    }
    if (type == BigDecimal.class) {
      return decimal(value, what);
    }
    if (type == Instant.class) {
      if (value instanceof Instant) {
        return value;
      }
      final long micros = exactLong(value, what);
      return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }
    if (type.isInstance(value)) {
      return value;
    }
    throw new BadParameterException(what + ": a " + value.getClass().getSimpleName() + " cannot be a "
        + type.getSimpleName());
  }

  private static long inRange(long v, long min, long max, String what) {
    if (v < min || v > max) {
      throw new BadParameterException(what + ": " + v + " is out of range [" + min + ", " + max + "]");
    }
    return v;
  }
}
