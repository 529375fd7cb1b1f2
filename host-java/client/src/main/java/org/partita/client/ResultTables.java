package org.partita.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads a result set: {@code u32 table_count} then that many tables (docs/engine-formats.md). */
public final class ResultTables {
  private ResultTables() {}

  /**
   * Parses the result set between {@code resultSet}'s position and limit (the
   * buffer's own position is not moved). The tables read the buffer's bytes in
   * place: they stay valid as long as those bytes do.
   *
   * @throws ResultFormatException if the bytes are not exactly one result set
   */
  public static ResultTable[] parse(ByteBuffer resultSet) {
    final ByteBuffer in = resultSet.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    final int start = in.position();
    if (in.remaining() < 4) {
      throw new ResultFormatException(start, "truncated table count");
    }
    final long count = Integer.toUnsignedLong(in.getInt());
    // Every table takes at least 10 bytes (size, column count, row count).
    if (count > in.remaining() / 10) {
      throw new ResultFormatException(start, "table_count " + count + " exceeds what " + in.remaining() + " bytes can hold");
    }
    final ResultTable[] tables = new ResultTable[(int) count];
    for (int i = 0; i < tables.length; i++) {
      tables[i] = ResultTable.read(in);
    }
    if (in.hasRemaining()) {
      throw new ResultFormatException(in.position(), in.remaining() + " bytes after the last table");
    }
    return tables;
  }
}
