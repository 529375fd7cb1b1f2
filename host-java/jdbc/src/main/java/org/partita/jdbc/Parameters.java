package org.partita.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;

/**
 * The parameter values of one prepared statement: set by position (1-based),
 * converted to what the Java client sends (Long, Integer, Short, Byte,
 * Double, BigDecimal, String, byte[], Instant, null). Java types and their
 * Partita values: Boolean → TINYINT 1/0; BigInteger → DECIMAL; Character →
 * VARCHAR; java.util.Date and Timestamp (with its nanoseconds, cut to
 * microseconds), Instant, OffsetDateTime, ZonedDateTime → TIMESTAMP;
 * LocalDateTime → TIMESTAMP in the JVM's time zone. Not thread-safe: one
 * statement's.
 */
final class Parameters {
  private static final Object UNSET = new Object();

  private final Object[] values;

  Parameters(int count) {
    values = new Object[count];
    clear();
  }

  int count() {
    return values.length;
  }

  void clear() {
    Arrays.fill(values, UNSET);
  }

  /**
   * Sets parameter {@code index} (1-based) to {@code value}.
   *
   * @throws SQLException 07009 for an index outside 1..count, 22023 for a value of a type Partita cannot store
   */
  void set(int index, Object value) throws SQLException {
    if (index < 1 || index > values.length) {
      throw new SQLException("parameter index " + index + " is outside 1.." + values.length + " (the statement has "
          + values.length + " ? placeholder(s))", SqlStates.INVALID_INDEX);
    }
    values[index - 1] = convert(index, value);
  }

  /**
   * A copy of the values to send.
   *
   * @throws SQLException 07001 naming the first parameter not set
   */
  Object[] bound() throws SQLException {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == UNSET) {
        throw new SQLException("parameter " + (i + 1) + " of " + values.length + " is not set",
            SqlStates.WRONG_PARAMETER_COUNT);
      }
    }
    return values.clone();
  }

  /** The client's value for JDBC value {@code value} of parameter {@code index}. */
  static Object convert(int index, Object value) throws SQLException {
    if (value == null || value instanceof Long || value instanceof Integer || value instanceof Short
        || value instanceof Byte || value instanceof Double || value instanceof BigDecimal || value instanceof String
        || value instanceof byte[] || value instanceof Instant) {
      return value;
    }
    if (value instanceof Float f) {
      return f.doubleValue();
    }
    if (value instanceof Boolean b) {
      return (byte) (b ? 1 : 0);
    }
    if (value instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (value instanceof Character c) {
      return c.toString();
    }
    if (value instanceof Timestamp t) {
      return t.toInstant();
    }
    if (value instanceof java.util.Date d) {
      return Instant.ofEpochMilli(d.getTime());
    }
    if (value instanceof OffsetDateTime t) {
      return t.toInstant();
    }
    if (value instanceof ZonedDateTime t) {
      return t.toInstant();
    }
    if (value instanceof LocalDateTime t) {
      return t.atZone(ZoneId.systemDefault()).toInstant();
    }
    throw new SQLException("parameter " + index + " is a " + value.getClass().getName() + ", which Partita cannot"
        + " store; use a number, BigDecimal, String, byte[], Boolean, Timestamp, Instant or a java.time date-time",
        SqlStates.INVALID_PARAMETER_VALUE);
  }
}
