package org.partita.server.database;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;

/** Copies and slices engine result sets (docs/engine-formats.md). */
final class ResultSets {
  private ResultSets() {}

  /** A private copy of the engine's (reused) result buffer. */
  static ByteBuffer copy(ByteBuffer engineResults) {
    final ByteBuffer copy = ByteBuffer.allocate(engineResults.remaining()).order(ByteOrder.LITTLE_ENDIAN);
    copy.put(engineResults.duplicate()).flip();
    return copy;
  }

  static ResultTable[] tables(ByteBuffer resultSet) {
    return ResultTables.parse(resultSet.duplicate().order(ByteOrder.LITTLE_ENDIAN));
  }

  /** Each table's bytes (starting with its u32 size), as RECEIVE dependencies need them. */
  static List<ByteBuffer> slices(ByteBuffer resultSet) {
    final ByteBuffer b = resultSet.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    final int count = b.getInt();
    final List<ByteBuffer> tables = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      final int start = b.position();
      final int size = b.getInt(start);
      final ByteBuffer table = b.duplicate();
      table.position(start).limit(start + 4 + size);
      tables.add(table.slice().order(ByteOrder.LITTLE_ENDIAN));
      b.position(start + 4 + size);
    }
    return tables;
  }

  /** A one-row, one-column BIGINT table (a procedure's long result). */
  static ResultTable longTable(String column, long value) {
    final byte[] name = column.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    final int tableSize = 2 + 1 + 2 + name.length + 4 + 4 + 1 + 8;
    final ByteBuffer b = ByteBuffer.allocate(4 + 4 + tableSize).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1).putInt(tableSize).putShort((short) 1).put((byte) org.partita.client.ValueType.BIGINT.code())
        .putShort((short) name.length).put(name).putInt(1).putInt(9).put((byte) 0).putLong(value).flip();
    return ResultTables.parse(b)[0];
  }
}
