package org.partita.client;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link ResultTable} in the engine's binary format
 * (docs/engine-formats.md) from Java values: for tables made outside the
 * engine (system procedures, tests). Not for hot paths: it boxes values.
 *
 * <p>Values by column type: integer types — Byte, Short, Integer, Long or
 * BigInteger within the type's range; FLOAT — any Number; DECIMAL — BigDecimal
 * or any Number (rounded half-up to scale 12, at most 38 digits); VARCHAR —
 * String; VARBINARY — byte[]; TIMESTAMP — Long µs or Instant; BOOLEAN —
 * Boolean. null is SQL NULL. {@link #row} checks every value at once and
 * throws an IllegalArgumentException naming the row, the column and what was
 * wrong, so {@link #build} cannot fail on a value. Not thread-safe.
 */
public final class ResultTableBuilder {
  private static final int DECIMAL_SCALE = 12;
  private static final int MAX_DECIMAL_DIGITS = 38;
  private static final int MAX_COLUMNS = 0xFFFF;
  private static final int MAX_NAME_BYTES = 0xFFFF;

  private final List<String> names = new ArrayList<>();
  private final List<ValueType> types = new ArrayList<>();
  private final List<Object[]> rows = new ArrayList<>();

  /** Adds a column; all columns come before the first row. */
  public ResultTableBuilder column(String name, ValueType type) {
    if (!rows.isEmpty()) {
      throw new IllegalStateException("columns must be declared before rows");
    }
    if (type == null || type == ValueType.NULL) {
      throw new IllegalArgumentException("column " + name + ": " + type + " is not a column type");
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
      throw new IllegalArgumentException("column name longer than " + MAX_NAME_BYTES + " bytes: " + name);
    }
    if (types.size() == MAX_COLUMNS) {
      throw new IllegalArgumentException("a table has at most " + MAX_COLUMNS + " columns");
    }
    names.add(name);
    types.add(type);
    return this;
  }

  /**
   * Adds a row; one value per column, in order.
   *
   * @throws IllegalArgumentException when the count differs from the column
   *     count or a value does not fit its column's type
   */
  public ResultTableBuilder row(Object... values) {
    if (values.length != types.size()) {
      throw new IllegalArgumentException("row " + rows.size() + " has " + values.length + " value(s), table has "
          + types.size() + " column(s)");
    }
    final Object[] row = new Object[values.length];
    for (int c = 0; c < values.length; c++) {
      row[c] = checked(c, values[c]);
    }
    rows.add(row);
    return this;
  }

  /** The value to store for column {@code c}: {@code v} itself, or a BigDecimal / µs for DECIMAL / TIMESTAMP. */
  private Object checked(int c, Object v) {
    if (v == null) {
      return null;
    }
    final ValueType type = types.get(c);
    final boolean fits = switch (type) {
      case TINYINT -> isIntegral(v) && inRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE);
      case SMALLINT -> isIntegral(v) && inRange(v, Short.MIN_VALUE, Short.MAX_VALUE);
      case INTEGER -> isIntegral(v) && inRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT -> isIntegral(v) && inRange(v, Long.MIN_VALUE, Long.MAX_VALUE);
      case FLOAT -> v instanceof Number;
      case DECIMAL -> decimal(v) != null;
      case VARCHAR -> v instanceof String;
      case VARBINARY -> v instanceof byte[];
      case TIMESTAMP -> v instanceof Long || v instanceof Instant && micros((Instant) v) != null;
      case BOOLEAN -> v instanceof Boolean;
      default -> false;
    };
    if (!fits) {
      throw new IllegalArgumentException("row " + rows.size() + " column " + c + " (" + names.get(c) + ", " + type
          + ") cannot hold " + v.getClass().getSimpleName() + " " + v + "; expected " + expected(type));
    }
    if (type == ValueType.DECIMAL) {
      return decimal(v);
    }
    return type == ValueType.TIMESTAMP && v instanceof Instant i ? micros(i) : v;
  }

  private static boolean isIntegral(Object v) {
    return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte
        || v instanceof BigInteger;
  }

  private static boolean inRange(Object v, long min, long max) {
    if (v instanceof BigInteger b) {
      return b.bitLength() < 64 && b.longValue() >= min && b.longValue() <= max;
    }
    final long l = ((Number) v).longValue();
    return l >= min && l <= max;
  }

  /** {@code v} as a DECIMAL at scale 12, or null when it is not a number or has more than 38 digits. */
  private static BigDecimal decimal(Object v) {
    final BigDecimal d;
    if (v instanceof BigDecimal b) {
      d = b;
    } else if (v instanceof Double || v instanceof Float) {
      final double x = ((Number) v).doubleValue();
      if (!Double.isFinite(x)) {
        return null;
      }
      d = new BigDecimal(v.toString());
    } else if (v instanceof Number) {
      d = new BigDecimal(v.toString());
    } else {
      return null;
    }
    final BigDecimal scaled = d.setScale(DECIMAL_SCALE, RoundingMode.HALF_UP);
    return scaled.precision() > MAX_DECIMAL_DIGITS ? null : scaled;
  }

  /** µs since the epoch of {@code i}, or null when they overflow a long. */
  private static Long micros(Instant i) {
    try {
      return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static String expected(ValueType type) {
    return switch (type) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> "Byte, Short, Integer, Long or BigInteger within " + type + "'s range";
      case FLOAT -> "a Number";
      case DECIMAL -> "a finite Number of at most " + MAX_DECIMAL_DIGITS + " digits at scale " + DECIMAL_SCALE;
      case VARCHAR -> "a String";
      case VARBINARY -> "a byte[]";
      case TIMESTAMP -> "a Long (µs since the epoch) or an Instant within a long of µs";
      case BOOLEAN -> "a Boolean";
      default -> "nothing (not a column type)";
    };
  }

  public ResultTable build() {
    final ByteBuffer out = ByteBuffer.allocate(size()).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(0);
    out.putShort((short) types.size());
    for (int c = 0; c < types.size(); c++) {
      final byte[] name = names.get(c).getBytes(StandardCharsets.UTF_8);
      out.put((byte) types.get(c).code()).putShort((short) name.length).put(name);
    }
    out.putInt(rows.size());
    for (Object[] row : rows) {
      final int rowStart = out.position();
      out.putInt(0);
      writeRow(out, row);
      out.putInt(rowStart, out.position() - rowStart - 4);
    }
    out.putInt(0, out.position() - 4);
    out.flip();
    return ResultTable.read(out);
  }

  private int size() {
    int size = 4 + 2 + 4;
    for (String name : names) {
      size += 3 + name.getBytes(StandardCharsets.UTF_8).length;
    }
    for (Object[] row : rows) {
      size += 4 + (types.size() + 7) / 8;
      for (int c = 0; c < row.length; c++) {
        size += valueSize(types.get(c), row[c]);
      }
    }
    return size;
  }

  private static int valueSize(ValueType type, Object value) {
    if (value == null) {
      return 0;
    }
    return switch (type) {
      case VARCHAR -> 4 + ((String) value).getBytes(StandardCharsets.UTF_8).length;
      case VARBINARY -> 4 + ((byte[]) value).length;
      default -> type.fixedSize();
    };
  }

  private void writeRow(ByteBuffer out, Object[] row) {
    final byte[] bitmap = new byte[(types.size() + 7) / 8];
    for (int c = 0; c < row.length; c++) {
      if (row[c] == null) {
        bitmap[c / 8] |= (byte) (1 << (c % 8));
      }
    }
    out.put(bitmap);
    for (int c = 0; c < row.length; c++) {
      if (row[c] != null) {
        writeValue(out, types.get(c), row[c]);
      }
    }
  }

  // REQUIRES: v passed checked() for this column (DECIMAL is a BigDecimal at scale 12, TIMESTAMP a Long).
  private static void writeValue(ByteBuffer out, ValueType type, Object v) {
    switch (type) {
      case TINYINT -> out.put(((Number) v).byteValue());
      case SMALLINT -> out.putShort(((Number) v).shortValue());
      case INTEGER -> out.putInt(((Number) v).intValue());
      case BIGINT -> out.putLong(((Number) v).longValue());
      case FLOAT -> out.putDouble(((Number) v).doubleValue());
      case DECIMAL -> writeDecimal(out, (BigDecimal) v);
      case VARCHAR -> writeBytes(out, ((String) v).getBytes(StandardCharsets.UTF_8));
      case VARBINARY -> writeBytes(out, (byte[]) v);
      case TIMESTAMP -> out.putLong((Long) v);
      case BOOLEAN -> out.put((byte) (((Boolean) v) ? 1 : 0));
      default -> throw new IllegalStateException("unchecked column type " + type);
    }
  }

  private static void writeBytes(ByteBuffer out, byte[] bytes) {
    out.putInt(bytes.length).put(bytes);
  }

  /** DECIMAL: a 128-bit two's-complement integer scaled by 10^12, low 64 bits first. */
  private static void writeDecimal(ByteBuffer out, BigDecimal d) {
    final BigInteger unscaled = d.unscaledValue();
    out.putLong(unscaled.longValue()).putLong(unscaled.shiftRight(64).longValue());
  }
}
