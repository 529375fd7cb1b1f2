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
 * <p>Values by column type: integer types — any integral Number; FLOAT — any
 * Number; DECIMAL — BigDecimal or any Number (rounded half-up to scale 12);
 * VARCHAR — String; VARBINARY — byte[]; TIMESTAMP — Long µs or Instant;
 * BOOLEAN — Boolean. null is SQL NULL. Not thread-safe.
 */
public final class ResultTableBuilder {
  private static final int DECIMAL_SCALE = 12;

  private final List<String> names = new ArrayList<>();
  private final List<ValueType> types = new ArrayList<>();
  private final List<Object[]> rows = new ArrayList<>();

  /** Adds a column; all columns come before the first row. */
  public ResultTableBuilder column(String name, ValueType type) {
    if (!rows.isEmpty()) {
      throw new IllegalStateException("columns must be declared before rows");
    }
    if (type == ValueType.NULL) {
      throw new IllegalArgumentException("column " + name + ": NULL is not a column type");
    }
    names.add(name);
    types.add(type);
    return this;
  }

  /** Adds a row; one value per column, in order. */
  public ResultTableBuilder row(Object... values) {
    if (values.length != types.size()) {
      throw new IllegalArgumentException("row has " + values.length + " value(s), table has " + types.size()
          + " column(s)");
    }
    rows.add(values.clone());
    return this;
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
        writeValue(out, types.get(c), row[c], names.get(c));
      }
    }
  }

  private static void writeValue(ByteBuffer out, ValueType type, Object v, String column) {
    try {
      switch (type) {
        case TINYINT -> out.put(((Number) v).byteValue());
        case SMALLINT -> out.putShort(((Number) v).shortValue());
        case INTEGER -> out.putInt(((Number) v).intValue());
        case BIGINT -> out.putLong(((Number) v).longValue());
        case FLOAT -> out.putDouble(((Number) v).doubleValue());
        case DECIMAL -> writeDecimal(out, v instanceof BigDecimal d ? d : new BigDecimal(v.toString()));
        case VARCHAR -> writeBytes(out, ((String) v).getBytes(StandardCharsets.UTF_8));
        case VARBINARY -> writeBytes(out, (byte[]) v);
        case TIMESTAMP -> out.putLong(v instanceof Instant i
            ? Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000)
            : ((Number) v).longValue());
        case BOOLEAN -> out.put((byte) (((Boolean) v) ? 1 : 0));
        default -> throw new IllegalArgumentException("unsupported column type " + type);
      }
    } catch (ClassCastException e) {
      throw new IllegalArgumentException("column " + column + " (" + type + "): cannot hold a "
          + v.getClass().getSimpleName(), e);
    }
  }

  private static void writeBytes(ByteBuffer out, byte[] bytes) {
    out.putInt(bytes.length).put(bytes);
  }

  /** DECIMAL: a 128-bit two's-complement integer scaled by 10^12, low 64 bits first. */
  private static void writeDecimal(ByteBuffer out, BigDecimal d) {
    final BigInteger unscaled = d.setScale(DECIMAL_SCALE, RoundingMode.HALF_UP).unscaledValue();
    out.putLong(unscaled.longValue()).putLong(unscaled.shiftRight(64).longValue());
  }
}
