package org.partita.server.database;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;

/** Copies and slices engine result sets (docs/engine-formats.md). */
final class ResultSets {
  /** The column of a Java procedure's long result. */
  static final String PROCEDURE_RESULT = "RESULT";
  private static final long SHARED_MIN = -16;
  private static final long SHARED_MAX = 255;
  // Never read through their own cursors: only their views are handed out.
  private static final ResultTable[] SHARED_RESULTS = sharedResults();
  // Success responses holding those tables themselves, for receivers that read only bytes.
  private static final ClientResponse[] SHARED_RESPONSES = sharedResponses();

  private ResultSets() {}

  /** A private copy of the engine's (reused) result buffer. */
  static ByteBuffer copy(ByteBuffer engineResults) {
    final ByteBuffer copy = ByteBuffer.allocate(engineResults.remaining()).order(ByteOrder.LITTLE_ENDIAN);
    copy.put(engineResults.duplicate()).flip();
    return copy;
  }

  /** The tables of {@code resultSet}, read in place (its position is not moved). */
  static ResultTable[] tables(ByteBuffer resultSet) {
    return ResultTables.parse(resultSet);
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

  /**
   * A one-row, one-column BIGINT table (a procedure's long result). A
   * procedure's usual result codes (a small value in a column named RESULT)
   * come from tables made once: each call gets its own cursor over the same
   * bytes ({@link ResultTable#view}) and nothing is encoded or parsed.
   */
  static ResultTable longTable(String column, long value) {
    if (column.equals(PROCEDURE_RESULT) && value >= SHARED_MIN && value <= SHARED_MAX) {
      return SHARED_RESULTS[(int) (value - SHARED_MIN)].view();
    }
    return newLongTable(column, value);
  }

  /**
   * The success response of a Java procedure that returned {@code value},
   * one for every call that returned it (nothing is made per call), or null
   * when {@code value} has none (outside -16..255). Only for a
   * {@link org.partita.server.txn.ResponseBytesConsumer}: its table's cursor
   * must never be used.
   */
  static ClientResponse sharedLongResponse(long value) {
    return value >= SHARED_MIN && value <= SHARED_MAX ? SHARED_RESPONSES[(int) (value - SHARED_MIN)] : null;
  }

  /** {@link #longTable} encoded and parsed afresh. */
  static ResultTable newLongTable(String column, long value) {
    final byte[] name = column.getBytes(StandardCharsets.UTF_8);
    final int tableSize = 2 + 1 + 2 + name.length + 4 + 4 + 1 + 8;
    final ByteBuffer b = ByteBuffer.allocate(4 + 4 + tableSize).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1).putInt(tableSize).putShort((short) 1).put((byte) org.partita.client.ValueType.BIGINT.code())
        .putShort((short) name.length).put(name).putInt(1).putInt(9).put((byte) 0).putLong(value).flip();
    // Read-only (nothing to lose: no strings), so that ResultTable#bytes makes one view, not two.
    return ResultTables.parse(b.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN))[0];
  }

  private static ClientResponse[] sharedResponses() {
    final ClientResponse[] responses = new ClientResponse[SHARED_RESULTS.length];
    for (int i = 0; i < responses.length; i++) {
      responses[i] = ClientResponse.success(List.of(SHARED_RESULTS[i]));
    }
    return responses;
  }

  private static ResultTable[] sharedResults() {
    final ResultTable[] tables = new ResultTable[(int) (SHARED_MAX - SHARED_MIN + 1)];
    for (int i = 0; i < tables.length; i++) {
      tables[i] = newLongTable(PROCEDURE_RESULT, SHARED_MIN + i);
    }
    return tables;
  }
}
