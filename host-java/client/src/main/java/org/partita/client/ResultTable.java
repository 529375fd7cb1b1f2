package org.partita.client;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;

/**
 * One table of the engine's binary result format (docs/engine-formats.md),
 * read in place from a ByteBuffer: the bytes a partition wrote, forwarded
 * unchanged to clients.
 *
 * <p>Parsing checks every size and every row against its columns once, and
 * records where each row starts; reading then creates no object per row. A
 * cursor selects the current row ({@link #advanceRow()}, {@link #advanceToRow(int)},
 * {@link #resetRowPosition()}); typed getters read its columns by index (0-based)
 * or name. A NULL reads as 0 / null and sets {@link #wasNull()}.
 *
 * <p>Getters: {@code getLong} — TINYINT, SMALLINT, INTEGER, BIGINT, BOOLEAN (0/1);
 * {@code getDouble} — FLOAT and the integer types; {@code getDecimal} — DECIMAL
 * (scale 12) and the integer types; {@code getString} — VARCHAR; {@code getBytes}
 * — VARBINARY and VARCHAR (its UTF-8); {@code getTimestampMicros} — TIMESTAMP
 * (µs since the epoch, UTC). Another type is an {@link IllegalArgumentException}.
 *
 * <p>Thread model: a ResultTable has a cursor; confine it to one thread.
 */
public final class ResultTable {
  private static final int DECIMAL_SCALE = 12;
  /** VARCHAR values up to this many bytes are decoded from direct memory through the table's scratch array. */
  private static final int SCRATCH_BYTES = 64;
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);

  private static final ValueType[] NO_COLUMNS = {};
  /** Where the first column's name (u16 size, then UTF-8) starts: after table_size, column_count and its type. */
  private static final int FIRST_NAME_OFFSET = 4 + 2 + 1;
  /** The types array of every one-column table of a type, shared: types arrays are never written after parsing. */
  private static final ValueType[][] SINGLE_COLUMN = singleColumnTypes();

  // Little-endian; read only with absolute gets, so the tables of one result
  // set can share one buffer: its position is never used, its limit never changed.
  // Fixed once parsed, except in a table the server re-points at the next
  // result of a procedure's statement (readShared with a table to reuse).
  private ByteBuffer buf;
  private int start;
  private int end;
  private ValueType[] types;
  // Where each column's name starts; null for a one-column table (FIRST_NAME_OFFSET).
  private int[] nameOffsets;
  private int rowCount;
  // Where row 0 starts (its null bitmap); rows 1 and on start at rowOffsets[r],
  // which is null for a table of 0 or 1 rows (the common case).
  private int firstRow;
  private int[] rowOffsets;
  private int bitmapBytes;
  // Column names are decoded on first use: the hot path (a procedure reading
  // values by position) never builds them.
  private String[] names;
  // Where the current row's values start (-1: NULL): firstValue for a
  // one-column table, else valueOffsets, made on first use.
  private int firstValue;
  private int[] valueOffsets;
  private int row = -1;
  private boolean lastWasNull;
  private Map<String, Integer> columnsByName;
  // getString's room for short values read from memory without an array of its own; made on first use.
  private byte[] scratch;

  private ResultTable(ByteBuffer buf, int start, int end, ValueType[] types, int[] nameOffsets, int rowCount,
      int firstRow, int[] rowOffsets) {
    point(buf, start, end, types, nameOffsets, rowCount, firstRow, rowOffsets);
  }

  /** Makes this table read another table's bytes, as a new one would (cursor before the first row). */
  private void point(ByteBuffer buf, int start, int end, ValueType[] types, int[] nameOffsets, int rowCount,
      int firstRow, int[] rowOffsets) {
    this.buf = buf;
    this.start = start;
    this.end = end;
    if (valueOffsets != null && valueOffsets.length != types.length) {
      valueOffsets = null;
    }
    this.types = types;
    this.nameOffsets = nameOffsets;
    this.rowCount = rowCount;
    this.firstRow = firstRow;
    this.rowOffsets = rowOffsets;
    this.bitmapBytes = (types.length + 7) / 8;
    this.names = null;
    this.columnsByName = null;
    this.row = -1;
    this.lastWasNull = false;
  }

  private static ValueType[][] singleColumnTypes() {
    final ValueType[][] single = new ValueType[ValueType.values().length][];
    for (ValueType type : ValueType.values()) {
      single[type.ordinal()] = new ValueType[] {type};
    }
    return single;
  }

  /**
   * Reads one table starting at {@code source}'s position (its {@code u32
   * table_size} field) and moves the position past it. The table reads
   * {@code source}'s bytes in place.
   *
   * @throws ResultFormatException naming the offset of the first problem
   */
  public static ResultTable read(ByteBuffer source) {
    final ResultTable table = readShared(source.duplicate().order(ByteOrder.LITTLE_ENDIAN), source.position(),
        source.limit());
    source.position(table.end);
    return table;
  }

  /**
   * Reads the table at offset {@code at} of {@code in} (little-endian; the
   * table must end by {@code limit}), keeping {@code in} itself: the caller
   * hands over that buffer and never lowers its limit. Moves nothing.
   */
  static ResultTable readShared(ByteBuffer in, int at, int limit) {
    return readShared(null, in, at, limit);
  }

  /**
   * {@link #readShared(ByteBuffer, int, int)} into {@code reuse} when it is
   * not null: that table is re-pointed at these bytes (what it read before
   * is gone) and returned; no table object is made.
   */
  static ResultTable readShared(ResultTable reuse, ByteBuffer in, int at, int limit) {
    need(at, 4, limit, "truncated table_size");
    final long size = Integer.toUnsignedLong(in.getInt(at));
    if (size > limit - at - 4) {
      throw new ResultFormatException(at, "table_size " + size + " runs past the end (" + (limit - at - 4) + " bytes follow)");
    }
    final int end = at + 4 + (int) size;
    int p = at + 4;
    need(p, 2, end, "truncated column count");
    final int columns = Short.toUnsignedInt(in.getShort(p));
    p += 2;
    // A one-column table (the common case) allocates neither array: its types
    // are shared and its only name sits at FIRST_NAME_OFFSET.
    ValueType[] types = columns == 1 ? null : new ValueType[columns];
    final int[] nameOffsets = columns == 1 ? null : new int[columns];
    for (int c = 0; c < columns; c++) {
      need(p, 3, end, "truncated descriptor of column ", c);
      final int code = Byte.toUnsignedInt(in.get(p));
      final ValueType type = ValueType.fromCode(code);
      if (type == null) {
        throw new ResultFormatException(p, "column " + c + " has unknown type " + code);
      }
      final int nameSize = Short.toUnsignedInt(in.getShort(p + 1));
      p += 3;
      need(p, nameSize, end, "truncated name of column ", c);
      if (columns == 1) {
        types = SINGLE_COLUMN[type.ordinal()];
      } else {
        types[c] = type;
        nameOffsets[c] = p - 2;
      }
      p += nameSize;
    }
    if (types == null) {
      types = NO_COLUMNS;
    }
    need(p, 4, end, "missing row count");
    final long rows = Integer.toUnsignedLong(in.getInt(p));
    if (rows > (end - p - 4) / 4) {
      throw new ResultFormatException(p, "row_count " + rows + " exceeds what " + (end - p - 4) + " bytes can hold");
    }
    p += 4;
    final int[] rowOffsets = rows < 2 ? null : new int[(int) rows];
    int firstRow = -1;
    for (int r = 0; r < rows; r++) {
      need(p, 4, end, "truncated size of row ", r);
      final long rowSize = Integer.toUnsignedLong(in.getInt(p));
      p += 4;
      if (rowSize > end - p) {
        throw new ResultFormatException(p - 4, "row " + r + " of " + rowSize + " bytes runs past the table");
      }
      if (r == 0) {
        firstRow = p;
      }
      if (rowOffsets != null) {
        rowOffsets[r] = p;
      }
      checkRow(in, p, (int) rowSize, types, r);
      p += (int) rowSize;
    }
    if (p != end) {
      throw new ResultFormatException(p, (end - p) + " bytes after the last row");
    }
    if (reuse == null) {
      return new ResultTable(in, at, end, types, nameOffsets, (int) rows, firstRow, rowOffsets);
    }
    reuse.point(in, at, end, types, nameOffsets, (int) rows, firstRow, rowOffsets);
    return reuse;
  }

  /**
   * Another table over the same bytes with its own cursor, sharing
   * everything read-only with this one: nothing is copied or parsed again.
   * The two may be used on different threads.
   */
  public ResultTable view() {
    return new ResultTable(buf, start, end, types, nameOffsets, rowCount, firstRow, rowOffsets);
  }

  private static void need(int at, int bytes, int end, String what, int index) {
    if (end - at < bytes) {
      throw new ResultFormatException(at, what + index);
    }
  }

  private static void need(int at, int bytes, int end, String what) {
    if (end - at < bytes) {
      throw new ResultFormatException(at, what);
    }
  }

  // Checks that the row holds exactly one value per non-NULL column.
  private static void checkRow(ByteBuffer in, int at, int size, ValueType[] types, int r) {
    final int end = at + size;
    int p = at + (types.length + 7) / 8;
    if (p > end) {
      throw new ResultFormatException(at, "row " + r + " is shorter than its null bitmap");
    }
    for (int c = 0; c < types.length; c++) {
      if ((in.get(at + (c >> 3)) >> (c & 7) & 1) != 0) {
        continue;
      }
      final int fixed = types[c].fixedSize();
      if (fixed == 0) {
        throw new ResultFormatException(p, "row " + r + " column " + c + " has a non-NULL value of type NULL");
      }
      long next;
      if (fixed > 0) {
        next = (long) p + fixed;
      } else {
        if (p + 4 > end) {
          throw new ResultFormatException(p, "row " + r + " column " + c + ": truncated length");
        }
        next = p + 4L + Integer.toUnsignedLong(in.getInt(p));
      }
      if (next > end) {
        throw new ResultFormatException(p, "row " + r + " column " + c + " runs past the row's " + size + " bytes");
      }
      p = (int) next;
    }
    if (p != end) {
      throw new ResultFormatException(p, "row " + r + " has " + (end - p) + " bytes after its last value");
    }
  }

  /**
   * The table's bytes exactly as read: {@code u32 table_size} and the table
   * (docs/engine-formats.md), for forwarding without re-encoding. A new
   * read-only view over the same memory; the table's cursor is unaffected.
   */
  public ByteBuffer bytes() {
    final ByteBuffer view = buf.isReadOnly() ? buf : buf.asReadOnlyBuffer();
    return view.slice(start, end - start).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Copies {@link #bytes()} into {@code dst} at {@code index}, without a
   * view and without moving either buffer's position or this table's cursor
   * (the server's answer path: no object per table).
   *
   * @throws IndexOutOfBoundsException unless {@link #byteSize()} bytes fit in {@code dst} at {@code index}
   */
  public void copyTo(ByteBuffer dst, int index) {
    dst.put(index, buf, start, end - start);
  }

  /** The size in bytes of {@link #bytes()}. */
  public int byteSize() {
    return end - start;
  }

  public int columnCount() {
    return types.length;
  }

  public String columnName(int column) {
    return name(column);
  }

  public ValueType columnType(int column) {
    return types[column];
  }

  /** The index of the column called {@code name} (exact, else ignoring case). */
  public int columnIndex(String name) {
    if (columnsByName == null) {
      final Map<String, Integer> map = new HashMap<>();
      for (int c = types.length - 1; c >= 0; c--) {
        map.put(name(c), c);
      }
      for (int c = types.length - 1; c >= 0; c--) {
        map.putIfAbsent(name(c).toUpperCase(java.util.Locale.ROOT), c);
      }
      columnsByName = map;
    }
    Integer c = columnsByName.get(name);
    if (c == null) {
      c = columnsByName.get(name.toUpperCase(java.util.Locale.ROOT));
    }
    if (c == null) {
      throw new IllegalArgumentException("no column named " + name);
    }
    return c;
  }

  public int rowCount() {
    return rowCount;
  }

  /** Moves to the next row; false (and past the end) when there is none. */
  public boolean advanceRow() {
    if (row + 1 >= rowCount) {
      row = rowCount;
      return false;
    }
    positionRow(row + 1);
    return true;
  }

  /** Makes {@code index} the current row. */
  public void advanceToRow(int index) {
    if (index < 0 || index >= rowCount) {
      throw new IndexOutOfBoundsException("row " + index + " of " + rowCount);
    }
    positionRow(index);
  }

  /** Back before the first row. */
  public void resetRowPosition() {
    row = -1;
  }

  /** The current row's index; -1 before the first. */
  public int activeRowIndex() {
    return row;
  }

  /** Whether the value last read was NULL. */
  public boolean wasNull() {
    return lastWasNull;
  }

  public long getLong(int column) {
    final int at = valueAt(column);
    if (at < 0) {
      return 0;
    }
    switch (types[column]) {
      case TINYINT:
      case BOOLEAN:
        return buf.get(at);
      case SMALLINT:
        return buf.getShort(at);
      case INTEGER:
        return buf.getInt(at);
      case BIGINT:
        return buf.getLong(at);
      default:
        throw wrongType(column, "an integer");
    }
  }

  public double getDouble(int column) {
    if (types[column] == ValueType.FLOAT) {
      final int at = valueAt(column);
      return at < 0 ? 0 : buf.getDouble(at);
    }
    if (!types[column].isInteger()) {
      throw wrongType(column, "FLOAT or an integer");
    }
    return getLong(column);
  }

  /** DECIMAL at scale 12 (or an integer type); null for NULL. */
  public BigDecimal getDecimal(int column) {
    if (types[column] != ValueType.DECIMAL) {
      if (!types[column].isInteger()) {
        throw wrongType(column, "DECIMAL or an integer");
      }
      final long v = getLong(column);
      return lastWasNull ? null : BigDecimal.valueOf(v).setScale(DECIMAL_SCALE);
    }
    final int at = valueAt(column);
    if (at < 0) {
      return null;
    }
    final long low = buf.getLong(at);
    final long high = buf.getLong(at + 8);
    if (high == (low >> 63)) {
      return BigDecimal.valueOf(low, DECIMAL_SCALE);
    }
    BigInteger unscaled = BigInteger.valueOf(high).shiftLeft(64).add(BigInteger.valueOf(low));
    if (low < 0) {
      unscaled = unscaled.add(TWO_64);  // low word is unsigned
    }
    return new BigDecimal(unscaled, DECIMAL_SCALE);
  }

  /** VARCHAR; null for NULL. */
  public String getString(int column) {
    if (types[column] != ValueType.VARCHAR) {
      throw wrongType(column, "VARCHAR");
    }
    final int at = valueAt(column);
    if (at < 0) {
      return null;
    }
    final int length = buf.getInt(at);
    if (buf.hasArray()) {
      return new String(buf.array(), buf.arrayOffset() + at + 4, length, StandardCharsets.UTF_8);
    }
    if (length <= SCRATCH_BYTES) {  // a short value out of direct or read-only memory: no temporary array
      if (scratch == null) {
        scratch = new byte[SCRATCH_BYTES];
      }
      buf.get(at + 4, scratch, 0, length);
      return new String(scratch, 0, length, StandardCharsets.UTF_8);
    }
    return new String(copy(at + 4, length), StandardCharsets.UTF_8);
  }

  /** VARBINARY (or VARCHAR's UTF-8 bytes); null for NULL. */
  public byte[] getBytes(int column) {
    if (types[column] != ValueType.VARBINARY && types[column] != ValueType.VARCHAR) {
      throw wrongType(column, "VARBINARY or VARCHAR");
    }
    final int at = valueAt(column);
    return at < 0 ? null : copy(at + 4, buf.getInt(at));
  }

  /** TIMESTAMP as µs since 1970-01-01 00:00:00 UTC. */
  public long getTimestampMicros(int column) {
    if (types[column] != ValueType.TIMESTAMP) {
      throw wrongType(column, "TIMESTAMP");
    }
    final int at = valueAt(column);
    return at < 0 ? 0 : buf.getLong(at);
  }

  /**
   * The value as an object: Byte, Short, Integer, Long, Double, BigDecimal,
   * String, byte[], Instant (TIMESTAMP), Boolean; null for NULL.
   */
  public Object getObject(int column) {
    if (valueAt(column) < 0) {
      return null;
    }
    switch (types[column]) {
      case TINYINT:
        return (byte) getLong(column);
      case SMALLINT:
        return (short) getLong(column);
      case INTEGER:
        return (int) getLong(column);
      case BIGINT:
        return getLong(column);
      case BOOLEAN:
        return getLong(column) != 0;
      case FLOAT:
        return getDouble(column);
      case DECIMAL:
        return getDecimal(column);
      case VARCHAR:
        return getString(column);
      case VARBINARY:
        return getBytes(column);
      case TIMESTAMP:
        final long micros = getTimestampMicros(column);
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
      default:
        return null;
    }
  }

  public long getLong(String column) {
    return getLong(columnIndex(column));
  }

  public double getDouble(String column) {
    return getDouble(columnIndex(column));
  }

  public BigDecimal getDecimal(String column) {
    return getDecimal(columnIndex(column));
  }

  public String getString(String column) {
    return getString(columnIndex(column));
  }

  public byte[] getBytes(String column) {
    return getBytes(columnIndex(column));
  }

  public long getTimestampMicros(String column) {
    return getTimestampMicros(columnIndex(column));
  }

  public Object getObject(String column) {
    return getObject(columnIndex(column));
  }

  /** The table as aligned text: a header of column names, a rule, one line per row. */
  @Override
  public String toString() {
    final int saved = row;
    final String[][] cells = new String[rowCount + 1][types.length];
    final int[] widths = new int[types.length];
    for (int c = 0; c < types.length; c++) {
      cells[0][c] = name(c);
    }
    for (int r = 0; r < rowCount; r++) {
      positionRow(r);
      for (int c = 0; c < types.length; c++) {
        cells[r + 1][c] = text(c);
      }
    }
    for (String[] line : cells) {
      for (int c = 0; c < types.length; c++) {
        widths[c] = Math.max(widths[c], line[c].length());
      }
    }
    final StringBuilder out = new StringBuilder();
    for (int r = 0; r < cells.length; r++) {
      appendLine(out, cells[r], widths);
      if (r == 0) {
        final String[] rule = new String[types.length];
        for (int c = 0; c < types.length; c++) {
          rule[c] = "-".repeat(widths[c]);
        }
        appendLine(out, rule, widths);
      }
    }
    if (saved >= 0 && saved < rowCount) {
      positionRow(saved);
    } else {
      row = saved;
    }
    return out.toString();
  }

  private static void appendLine(StringBuilder out, String[] cells, int[] widths) {
    for (int c = 0; c < cells.length; c++) {
      if (c > 0) {
        out.append(' ');
      }
      out.append(cells[c]);
      if (c + 1 < cells.length) {
        out.append(" ".repeat(widths[c] - cells[c].length()));
      }
    }
    out.append('\n');
  }

  private String text(int column) {
    final Object value = getObject(column);
    if (value == null) {
      return "NULL";
    }
    if (value instanceof byte[]) {
      final StringBuilder hex = new StringBuilder("x'");
      for (byte b : (byte[]) value) {
        hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
      }
      return hex.append('\'').toString();
    }
    if (value instanceof Instant) {
      return TIMESTAMP_TEXT.format((Instant) value);
    }
    if (value instanceof BigDecimal) {
      return ((BigDecimal) value).toPlainString();
    }
    return value.toString();
  }

  private void positionRow(int index) {
    row = index;
    final int start = index == 0 ? firstRow : rowOffsets[index];
    if (types.length == 1) {
      firstValue = (buf.get(start) & 1) != 0 ? -1 : start + bitmapBytes;
      return;
    }
    if (valueOffsets == null) {
      valueOffsets = new int[types.length];
    }
    int p = start + bitmapBytes;
    for (int c = 0; c < types.length; c++) {
      if ((buf.get(start + (c >> 3)) >> (c & 7) & 1) != 0) {
        valueOffsets[c] = -1;
        continue;
      }
      valueOffsets[c] = p;
      final int fixed = types[c].fixedSize();
      p += fixed >= 0 ? fixed : 4 + buf.getInt(p);
    }
  }

  // The current row's offset of `column`'s value, or -1 for NULL (sets wasNull).
  private int valueAt(int column) {
    if (row < 0 || row >= rowCount) {
      throw new IllegalStateException("no current row: call advanceRow() first");
    }
    if (valueOffsets == null && column != 0) {
      throw new ArrayIndexOutOfBoundsException("column " + column + " of a table of " + types.length);
    }
    final int at = valueOffsets == null ? firstValue : valueOffsets[column];
    lastWasNull = at < 0;
    return at;
  }

  private byte[] copy(int at, int length) {
    final byte[] out = new byte[length];
    buf.get(at, out);
    return out;
  }

  private IllegalArgumentException wrongType(int column, String wanted) {
    return new IllegalArgumentException(
        "column " + column + " (" + name(column) + ") is " + types[column] + ", not " + wanted);
  }

  /** Column {@code c}'s name, decoded from the table's bytes on first use. */
  private String name(int c) {
    if (names == null) {
      names = new String[types.length];
    }
    String name = names[c];
    if (name == null) {
      final int at = nameOffsets == null ? start + FIRST_NAME_OFFSET : nameOffsets[c];
      final int size = Short.toUnsignedInt(buf.getShort(at));
      final byte[] bytes = new byte[size];
      buf.get(at + 2, bytes);
      name = new String(bytes, StandardCharsets.UTF_8);
      names[c] = name;
    }
    return name;
  }
}
