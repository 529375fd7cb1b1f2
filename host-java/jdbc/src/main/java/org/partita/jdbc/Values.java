package org.partita.jdbc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.HexFormat;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

/**
 * Reads the current row's values of a result table as the JDBC getters
 * want them, converting between types where JDBC allows it (a number as
 * text, text as a number, a TIMESTAMP as text). A conversion that loses the
 * value fails: 22003 for a number out of the target's range, 22018 for text
 * that is not a number. NULL reads as 0, false or null (the caller sets
 * {@code wasNull}). Stateless.
 */
final class Values {
  private static final long MICROS_PER_SECOND = 1_000_000L;

  private Values() {}

  static boolean isNull(ResultTable t, int c) {
    return t.getObject(c) == null;
  }

  static long getLong(ResultTable t, int c, long min, long max, String target) throws SQLException {
    final ValueType type = t.columnType(c);
    final long v;
    if (type.isInteger() || type == ValueType.BOOLEAN) {
      v = t.getLong(c);
      if (t.wasNull()) {
        return 0;
      }
    } else {
      final BigDecimal d = getDecimal(t, c);
      if (d == null) {
        return 0;
      }
      try {
        v = d.setScale(0, RoundingMode.DOWN).longValueExact();
      } catch (ArithmeticException e) {
        throw outOfRange(t, c, d.toPlainString(), target);
      }
    }
    if (v < min || v > max) {
      throw outOfRange(t, c, Long.toString(v), target);
    }
    return v;
  }

  static double getDouble(ResultTable t, int c) throws SQLException {
    final ValueType type = t.columnType(c);
    if (type == ValueType.FLOAT) {
      return t.getDouble(c);
    }
    if (type.isInteger()) {
      return t.getLong(c);
    }
    final BigDecimal d = getDecimal(t, c);
    return d == null ? 0 : d.doubleValue();
  }

  static BigDecimal getDecimal(ResultTable t, int c) throws SQLException {
    final Object v = t.getObject(c);
    if (v == null) {
      return null;
    }
    switch (t.columnType(c)) {
      case DECIMAL:
        return (BigDecimal) v;
      case FLOAT:
        return BigDecimal.valueOf((Double) v);
      case VARCHAR:
        try {
          return new BigDecimal(((String) v).trim());
        } catch (NumberFormatException e) {
          throw new SQLDataException("column " + (c + 1) + " (" + t.columnName(c) + ") holds '" + v
              + "', which is not a number", SqlStates.INVALID_CAST);
        }
      default:
        if (t.columnType(c).isInteger()) {
          return BigDecimal.valueOf(((Number) v).longValue());
        }
        throw cannotRead(t, c, "a number");
    }
  }

  static String getString(ResultTable t, int c) {
    final Object v = t.getObject(c);
    if (v == null) {
      return null;
    }
    switch (t.columnType(c)) {
      case DECIMAL:
        return ((BigDecimal) v).toPlainString();
      case VARBINARY:
        return HexFormat.of().withUpperCase().formatHex((byte[]) v);
      case TIMESTAMP:
        return timestamp(t.getTimestampMicros(c)).toString();
      default:
        return v.toString();
    }
  }

  static byte[] getBytes(ResultTable t, int c) throws SQLException {
    final ValueType type = t.columnType(c);
    if (type != ValueType.VARBINARY && type != ValueType.VARCHAR) {
      throw cannotRead(t, c, "bytes");
    }
    return t.getBytes(c);
  }

  static Timestamp getTimestamp(ResultTable t, int c) throws SQLException {
    final ValueType type = t.columnType(c);
    if (type == ValueType.TIMESTAMP) {
      final long micros = t.getTimestampMicros(c);
      return t.wasNull() ? null : timestamp(micros);
    }
    if (type == ValueType.VARCHAR) {
      final String s = t.getString(c);
      try {
        return s == null ? null : Timestamp.valueOf(s.trim());
      } catch (IllegalArgumentException e) {
        throw new SQLDataException("column " + (c + 1) + " (" + t.columnName(c) + ") holds '" + s
            + "', which is not a timestamp (yyyy-mm-dd hh:mm:ss[.f...])", SqlStates.INVALID_CAST);
      }
    }
    throw cannotRead(t, c, "a timestamp");
  }

  /** The Timestamp of {@code micros} µs since 1970-01-01 00:00:00 UTC, microseconds kept. */
  static Timestamp timestamp(long micros) {
    return Timestamp.from(Instant.ofEpochSecond(Math.floorDiv(micros, MICROS_PER_SECOND),
        Math.floorMod(micros, MICROS_PER_SECOND) * 1000L));
  }

  /** The value as JDBC's getObject gives it: Integer for TINYINT/SMALLINT/INTEGER, Timestamp for TIMESTAMP, ... */
  static Object getObject(ResultTable t, int c) throws SQLException {
    final Object v = t.getObject(c);
    if (v == null) {
      return null;
    }
    switch (t.columnType(c)) {
      case TINYINT:
      case SMALLINT:
        return ((Number) v).intValue();
      case TIMESTAMP:
        return getTimestamp(t, c);
      default:
        return v;
    }
  }

  /** The java.sql.Types code of a Partita type. */
  static int sqlType(ValueType type) {
    switch (type) {
      case TINYINT: return Types.TINYINT;
      case SMALLINT: return Types.SMALLINT;
      case INTEGER: return Types.INTEGER;
      case BIGINT: return Types.BIGINT;
      case FLOAT: return Types.DOUBLE;
      case DECIMAL: return Types.DECIMAL;
      case VARCHAR: return Types.VARCHAR;
      case VARBINARY: return Types.VARBINARY;
      case TIMESTAMP: return Types.TIMESTAMP;
      case BOOLEAN: return Types.BOOLEAN;
      default: return Types.NULL;
    }
  }

  /** The Java class getObject returns for a Partita type. */
  static String className(ValueType type) {
    switch (type) {
      case TINYINT:
      case SMALLINT:
      case INTEGER: return Integer.class.getName();
      case BIGINT: return Long.class.getName();
      case FLOAT: return Double.class.getName();
      case DECIMAL: return BigDecimal.class.getName();
      case VARCHAR: return String.class.getName();
      case VARBINARY: return byte[].class.getName();
      case TIMESTAMP: return Timestamp.class.getName();
      case BOOLEAN: return Boolean.class.getName();
      default: return Object.class.getName();
    }
  }

  /** Decimal digits (numbers), characters (text, timestamps as text) or 0 when unknown. */
  static int precision(ValueType type) {
    switch (type) {
      case TINYINT: return 3;
      case SMALLINT: return 5;
      case INTEGER: return 10;
      case BIGINT: return 19;
      case FLOAT: return 17;
      case DECIMAL: return 38;
      case TIMESTAMP: return 26;
      case BOOLEAN: return 1;
      default: return 0;
    }
  }

  private static SQLDataException outOfRange(ResultTable t, int c, String value, String target) {
    return new SQLDataException("column " + (c + 1) + " (" + t.columnName(c) + ") holds " + value
        + ", outside the range of " + target, SqlStates.NUMERIC_OUT_OF_RANGE);
  }

  private static SQLDataException cannotRead(ResultTable t, int c, String as) {
    return new SQLDataException("column " + (c + 1) + " (" + t.columnName(c) + ") is " + t.columnType(c)
        + " and cannot be read as " + as, SqlStates.INVALID_CAST);
  }
}
