package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultFormatException;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

class ResultArenaTest {
  /**
   * A result set of one table, one VARBINARY column "B", one row holding
   * {@code size} bytes seed, seed + 1, ...; in direct memory after {@code
   * offset} bytes of padding (the position is left there), as the engine's
   * response buffer holds it.
   */
  private static ByteBuffer resultSet(int size, int seed, int offset) {
    final int rowSize = 1 + 4 + size;
    final int tableSize = 2 + 1 + 2 + 1 + 4 + 4 + rowSize;
    final ByteBuffer b = ByteBuffer.allocateDirect(offset + 4 + 4 + tableSize).order(ByteOrder.LITTLE_ENDIAN);
    b.position(offset);
    b.putInt(1).putInt(tableSize).putShort((short) 1).put((byte) ValueType.VARBINARY.code()).putShort((short) 1)
        .put((byte) 'B').putInt(1).putInt(rowSize).put((byte) 0).putInt(size);
    for (int i = 0; i < size; i++) {
      b.put((byte) (seed + i));
    }
    return b.flip().position(offset);
  }

  private static byte[] only(ResultTable[] tables) {
    assertEquals(1, tables.length);
    assertTrue(tables[0].advanceRow());
    return tables[0].getBytes(0);
  }

  private static byte[] expected(int size, int seed) {
    final byte[] out = new byte[size];
    for (int i = 0; i < size; i++) {
      out[i] = (byte) (seed + i);
    }
    return out;
  }

  @Test
  void shouldReadTablesFromPrivateCopiesThatLaterCopiesAndSourceChangesLeaveAlone() {
    final ResultArena arena = new ResultArena();
    final ByteBuffer source = resultSet(100, 1, 10);
    final ResultTable[] first = arena.tables(source);
    assertEquals(10, source.position(), "the source's position is not moved");
    source.put(source.limit() - 1, (byte) 77);
    final ResultTable[] second = arena.tables(resultSet(50, 50, 0));
    assertArrayEquals(expected(100, 1), only(first), "a private copy, not overwritten by the second");
    assertArrayEquals(expected(50, 50), only(second));
    final ByteBuffer bytes = first[0].bytes();
    assertTrue(bytes.isDirect(), "direct memory: the network writes it without another copy");
    assertTrue(bytes.isReadOnly());
    assertEquals(first[0].byteSize(), bytes.remaining());
  }

  @Test
  void shouldStartANewChunkWhenTheCurrentOneIsFull() {
    final ResultArena arena = new ResultArena();
    final int size = ResultArena.CHUNK_BYTES / 4 - 64;
    final ResultTable[][] copies = new ResultTable[9][];
    for (int i = 0; i < copies.length; i++) {
      copies[i] = arena.tables(resultSet(size, i, 0));
    }
    for (int i = 0; i < copies.length; i++) {
      assertArrayEquals(expected(size, i), only(copies[i]), "copy " + i);
    }
  }

  @Test
  void shouldCopyResultsLargerThanAQuarterChunkToTheHeap() {
    final ResultArena arena = new ResultArena();
    final ResultTable[] large = arena.tables(resultSet(ResultArena.CHUNK_BYTES / 4, 3, 0));
    assertFalse(large[0].bytes().isDirect());
    assertArrayEquals(expected(ResultArena.CHUNK_BYTES / 4, 3), only(large));
  }

  @Test
  void shouldRefuseBytesThatAreNotOneResultSet() {
    final ResultArena arena = new ResultArena();
    final ByteBuffer truncated = resultSet(10, 0, 0);
    truncated.limit(truncated.limit() - 1);
    assertThrows(ResultFormatException.class, () -> arena.tables(truncated));
    assertArrayEquals(expected(10, 5), only(arena.tables(resultSet(10, 5, 0))), "the arena still works");
  }
}
