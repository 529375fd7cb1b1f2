package org.partita.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads a result set: {@code u32 table_count} then that many tables (docs/engine-formats.md). */
public final class ResultTables {
  private ResultTables() {}

  /**
   * Parses the result set between {@code resultSet}'s position and limit (the
   * buffer's own position is not moved). The tables read the buffer's bytes in
   * place: they stay valid as long as those bytes do. They share one view of
   * the buffer, so a result set costs one view, its array and one object per
   * table (plus a row index per table of two or more rows).
   *
   * @throws ResultFormatException if the bytes are not exactly one result set
   */
  public static ResultTable[] parse(ByteBuffer resultSet) {
    // A read-only view when that loses nothing (direct memory has no array to
    // read strings from), so that ResultTable#bytes costs one view, not two.
    final ByteBuffer in = (resultSet.isDirect() ? resultSet.asReadOnlyBuffer() : resultSet.duplicate())
        .order(ByteOrder.LITTLE_ENDIAN);
    return parseShared(in, in.position(), in.limit());
  }

  /**
   * Parses the result set in bytes [{@code start}, {@code end}) of {@code
   * shared} without a view of its own: the tables read {@code shared} itself,
   * so a result set costs its array and one object per table. For a buffer
   * handed over for good, such as a read-only view of memory that is only
   * ever appended to. REQUIRES: {@code shared} is little-endian; its limit is
   * never lowered below {@code end}, nor those bytes changed, while the
   * tables are in use. Moves nothing.
   *
   * @throws ResultFormatException if the bytes are not exactly one result set
   */
  public static ResultTable[] parseShared(ByteBuffer shared, int start, int end) {
    return parseShared(null, shared, start, end);
  }

  /**
   * {@link #parseShared(ByteBuffer, int, int)} re-pointing the tables of
   * {@code reuse} (when it is not null and holds exactly as many tables as
   * the result set) instead of making new ones: returns {@code reuse}
   * itself, whose tables no longer read what they read before. For a
   * reader that owns those tables and knows nobody else holds them.
   *
   * @throws ResultFormatException if the bytes are not exactly one result set
   */
  /**
   * Reads the one table that fills bytes [{@code start}, {@code end}) of
   * {@code shared} without a view of its own (as {@link #parseShared(ByteBuffer,
   * int, int)} does for a result set): how an answer's result, one table per
   * {@code results} entry of the wire, is read. REQUIRES: as parseShared.
   *
   * @throws ResultFormatException if the bytes are not exactly one table
   */
  public static ResultTable parseOneShared(ByteBuffer shared, int start, int end) {
    if (shared.order() != ByteOrder.LITTLE_ENDIAN || start < 0 || end > shared.limit() || start > end) {
      throw new IllegalArgumentException("parseOneShared needs a little-endian buffer and a range within its limit");
    }
    final ResultTable table = ResultTable.readShared(shared, start, end);
    if (start + table.byteSize() != end) {
      throw new ResultFormatException(start + table.byteSize(), (end - start - table.byteSize())
          + " bytes after the table");
    }
    return table;
  }

  public static ResultTable[] parseShared(ResultTable[] reuse, ByteBuffer shared, int start, int end) {
    if (shared.order() != ByteOrder.LITTLE_ENDIAN || start < 0 || end > shared.limit() || start > end) {
      throw new IllegalArgumentException("parseShared needs a little-endian buffer and a range within its limit");
    }
    if (end - start < 4) {
      throw new ResultFormatException(start, "truncated table count");
    }
    final long count = Integer.toUnsignedLong(shared.getInt(start));
    // Every table takes at least 10 bytes (size, column count, row count).
    if (count > (end - start - 4) / 10) {
      throw new ResultFormatException(start, "table_count " + count + " exceeds what " + (end - start - 4)
          + " bytes can hold");
    }
    final boolean reusing = reuse != null && reuse.length == count;
    final ResultTable[] tables = reusing ? reuse : new ResultTable[(int) count];
    int at = start + 4;
    for (int i = 0; i < tables.length; i++) {
      tables[i] = ResultTable.readShared(reusing ? reuse[i] : null, shared, at, end);
      at += tables[i].byteSize();
    }
    if (at != end) {
      throw new ResultFormatException(at, (end - at) + " bytes after the last table");
    }
    return tables;
  }
}
