package org.partita.server.database;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import org.partita.proto.ValueType;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.error.ServerException;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.txn.Invocation;

/**
 * Converts call parameters (docs/procedures.md, "Parameters"): widening is
 * allowed (an int for a BIGINT, a long for a DOUBLE when exact), anything
 * that would lose information is rejected with a message naming the
 * parameter (BAD_PARAMETER). DECIMAL parameters must fit exactly: at most
 * {@value #DECIMAL_FRACTION_DIGITS} digits after the point and
 * {@value #DECIMAL_INTEGER_DIGITS} before it; nothing is rounded. Stateless.
 */
final class ParameterConverter {
  /** DECIMAL(38, 12): digits after the point. */
  static final int DECIMAL_FRACTION_DIGITS = BatchRequestWriter.DECIMAL_SCALE;
  /** DECIMAL(38, 12): digits before the point. */
  static final int DECIMAL_INTEGER_DIGITS = 38 - DECIMAL_FRACTION_DIGITS;

  private ParameterConverter() {}

  /** Writes {@code value} as a statement parameter of type {@code type}. */
  static void write(BatchRequestWriter writer, Object value, ValueType type, String subject, int position) {
    if (value == null) {
      writer.addNull();
      return;
    }
    switch (type) {
      case VALUE_TYPE_TINYINT, VALUE_TYPE_SMALLINT, VALUE_TYPE_INTEGER, VALUE_TYPE_BIGINT ->
          writer.addBigInt(exactLong(value, subject, position));
      case VALUE_TYPE_FLOAT -> writer.addFloat(exactDouble(value, subject, position));
      case VALUE_TYPE_DECIMAL -> writer.addDecimal(decimal(value, subject, position));
      case VALUE_TYPE_VARCHAR -> {
        if (!(value instanceof String s)) {
          throw mismatch(value, type, subject, position);
        }
        writer.addVarchar(s);
      }
      case VALUE_TYPE_VARBINARY -> {
        if (!(value instanceof byte[] b)) {
          throw mismatch(value, type, subject, position);
        }
        writer.addVarbinary(b);
      }
      case VALUE_TYPE_TIMESTAMP -> writer.addTimestamp(timestampMicros(value, subject, position));
      default -> throw mismatch(value, type, subject, position);
    }
  }

  /** {@link #write} of a long, boxing it only for the types an integer does not go to directly. */
  static void writeLong(BatchRequestWriter writer, long value, ValueType type, String subject, int position) {
    switch (type) {
      case VALUE_TYPE_TINYINT, VALUE_TYPE_SMALLINT, VALUE_TYPE_INTEGER, VALUE_TYPE_BIGINT -> writer.addBigInt(value);
      case VALUE_TYPE_TIMESTAMP -> writer.addTimestamp(value);
      default -> write(writer, value, type, subject, position);
    }
  }

  /** {@link #write} of a double, boxing it only for the types other than FLOAT. */
  static void writeDouble(BatchRequestWriter writer, double value, ValueType type, String subject, int position) {
    if (type == ValueType.VALUE_TYPE_FLOAT) {
      writer.addFloat(value);
    } else {
      write(writer, value, type, subject, position);
    }
  }

  static long exactLong(Object value, String subject, int position) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal d) {
      try {
        return d.longValueExact();
      } catch (ArithmeticException e) {
        throw ServerException.badParameter(where(subject, position) + ": " + d.toPlainString() + " is not an integer in BIGINT range");
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
      throw ServerException.badParameter(where(subject, position) + ": " + d + " is not an integer");
    }
    throw mismatch(value, ValueType.VALUE_TYPE_BIGINT, subject, position);
  }

  private static double exactDouble(Object value, String subject, int position) {
    if (value instanceof Double || value instanceof Float) {
      return ((Number) value).doubleValue();
    }
    if (value instanceof BigDecimal d) {
      return d.doubleValue();
    }
    final long l = exactLong(value, subject, position);
    final double d = (double) l;
    if ((long) d != l) {
      throw ServerException.badParameter(where(subject, position) + ": " + l + " cannot be represented exactly as a FLOAT");
    }
    return d;
  }

  private static BigDecimal decimal(Object value, String subject, int position) {
    if (value instanceof BigDecimal d) {
      return fitDecimal(d, subject, position);
    }
    if (value instanceof Double || value instanceof Float) {
      final double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        throw ServerException.badParameter(where(subject, position) + ": " + d + " is not a DECIMAL");
      }
      return fitDecimal(BigDecimal.valueOf(d), subject, position);
    }
    return BigDecimal.valueOf(exactLong(value, subject, position));
  }

  /** {@code d} when DECIMAL(38, 12) holds it exactly (trailing zeros aside); else BAD_PARAMETER. */
  private static BigDecimal fitDecimal(BigDecimal d, String subject, int position) {
    final BigDecimal stripped = d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    if (stripped.scale() > DECIMAL_FRACTION_DIGITS) {
      throw ServerException.badParameter(where(subject, position) + ": " + abbreviate(d) + " has " + stripped.scale()
          + " digits after the decimal point; DECIMAL keeps " + DECIMAL_FRACTION_DIGITS + " (round it first)");
    }
    if (stripped.precision() - stripped.scale() > DECIMAL_INTEGER_DIGITS) {
      throw ServerException.badParameter(where(subject, position) + ": " + abbreviate(d) + " is out of DECIMAL range ("
          + DECIMAL_INTEGER_DIGITS + " digits before the decimal point)");
    }
    return stripped;
  }

  private static String abbreviate(BigDecimal d) {
    final String text = d.toString();
    return text.length() <= 40 ? text : text.substring(0, 40) + "...";
  }

  static long timestampMicros(Object value, String subject, int position) {
    if (value instanceof Instant i) {
      try {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
      } catch (ArithmeticException e) {
        throw ServerException.badParameter(where(subject, position) + ": " + i
            + " is outside the TIMESTAMP range (microseconds since 1970 in a signed 64-bit integer)");
      }
    }
    return exactLong(value, subject, position);
  }

  /** "statement X parameter 3"; built only when a parameter is rejected. */
  private static String where(String subject, int position) {
    return position > 0 ? subject + " parameter " + position : subject;
  }

  private static ServerException mismatch(Object value, ValueType type, String subject, int position) {
    return ServerException.badParameter(where(subject, position) + ": a " + value.getClass().getSimpleName() + " cannot be a "
        + type.name().substring("VALUE_TYPE_".length()));
  }

  /** The canonical partitioning value of {@code value} for a column of {@code type} (PartitionHash). */
  /**
   * Whether a Long argument for a column of {@code type} is already its
   * canonical partitioning value ({@link #partitionValue} returns it as it
   * is): every type but VARCHAR and VARBINARY. Callers use it to place an
   * integer without converting it or naming it for an error.
   */
  static boolean longIsCanonical(ValueType type) {
    return type != ValueType.VALUE_TYPE_VARCHAR && type != ValueType.VALUE_TYPE_VARBINARY;
  }

  /**
   * Where in {@code invocation}'s bytes the partitioning value of
   * single-partition {@code procedure} sits when it is an integer that is
   * already canonical ({@link #longIsCanonical}), for
   * {@link Invocation#integerAt}; -1 when the parameter is absent or needs
   * boxing or converting. Reads no value: routing and the sites' look-ahead
   * place calls from it without allocating.
   */
  static int integerPartitionKeyAt(CompiledProcedure procedure, Invocation invocation) {
    final int index = procedure.partition().parameterIndex();
    if (index >= invocation.parameterCount() || !longIsCanonical(procedure.partition().columnType())) {
      return -1;
    }
    return invocation.integerParameterAt(index);
  }

  static Object partitionValue(Object value, ValueType type, String subject, int position) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case VALUE_TYPE_VARCHAR -> {
        if (!(value instanceof String)) {
          throw mismatch(value, type, subject, position);
        }
        yield value;
      }
      case VALUE_TYPE_VARBINARY -> {
        if (!(value instanceof byte[])) {
          throw mismatch(value, type, subject, position);
        }
        yield value;
      }
      case VALUE_TYPE_TIMESTAMP -> value instanceof Long ? value : timestampMicros(value, subject, position);
      default -> value instanceof Long ? value : exactLong(value, subject, position);
    };
  }

  /** Converts a call argument to the Java type of a run() parameter. */
  static Object argument(Object value, Class<?> type, String subject, int position) {
    if (value == null) {
      if (type.isPrimitive()) {
        throw ServerException.badParameter(where(subject, position) + ": NULL for a " + type.getSimpleName());
      }
      return null;
    }
    if (type == long.class || type == Long.class) {
      return value instanceof Long ? value : exactLong(value, subject, position);
    }
    if (type == int.class || type == Integer.class) {
      return (int) inRange(exactLong(value, subject, position), Integer.MIN_VALUE, Integer.MAX_VALUE, subject, position);
    }
    if (type == short.class || type == Short.class) {
      return (short) inRange(exactLong(value, subject, position), Short.MIN_VALUE, Short.MAX_VALUE, subject, position);
    }
    if (type == byte.class || type == Byte.class) {
      return (byte) inRange(exactLong(value, subject, position), Byte.MIN_VALUE, Byte.MAX_VALUE, subject, position);
    }
    if (type == double.class || type == Double.class) {
      return exactDouble(value, subject, position);
    }
    if (type == BigDecimal.class) {
      return decimal(value, subject, position);
    }
    if (type == Instant.class) {
      if (value instanceof Instant) {
        return value;
      }
      final long micros = exactLong(value, subject, position);
      return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }
    if (type.isInstance(value)) {
      return value;
    }
    throw ServerException.badParameter(where(subject, position) + ": a " + value.getClass().getSimpleName() + " cannot be a "
        + type.getSimpleName());
  }

  private static long inRange(long v, long min, long max, String subject, int position) {
    if (v < min || v > max) {
      throw ServerException.badParameter(where(subject, position) + ": " + v + " is out of range [" + min + ", " + max + "]");
    }
    return v;
  }
}
