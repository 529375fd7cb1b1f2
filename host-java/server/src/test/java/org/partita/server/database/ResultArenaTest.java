package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class ResultArenaTest {
  private static ByteBuffer bytes(int size, int seed) {
    final ByteBuffer b = ByteBuffer.allocateDirect(size);
    for (int i = 0; i < size; i++) {
      b.put(i, (byte) (seed + i));
    }
    return b;
  }

  @Test
  void shouldCopyIntoDirectSlicesThatLaterCopiesAndSourceChangesLeaveAlone() {
    final ResultArena arena = new ResultArena();
    final ByteBuffer source = bytes(100, 1);
    source.position(10);
    final ByteBuffer first = arena.copy(source);
    assertEquals(10, source.position(), "the source's position is not moved");
    source.put(10, (byte) 77);
    final ByteBuffer second = arena.copy(bytes(100, 50));
    assertTrue(first.isDirect());
    assertEquals(ByteOrder.LITTLE_ENDIAN, first.order());
    assertEquals(0, first.position());
    assertEquals(90, first.remaining());
    assertEquals((byte) 11, first.get(0), "a private copy");
    assertEquals((byte) 50, second.get(0));
    assertEquals((byte) (1 + 99), first.get(89), "the second copy did not overwrite the first");
  }

  @Test
  void shouldStartANewChunkWhenTheCurrentOneIsFull() {
    final ResultArena arena = new ResultArena();
    final int size = ResultArena.CHUNK_BYTES / 4;
    final ByteBuffer[] copies = new ByteBuffer[9];
    for (int i = 0; i < copies.length; i++) {
      copies[i] = arena.copy(bytes(size, i));
    }
    for (int i = 0; i < copies.length; i++) {
      assertEquals(size, copies[i].remaining());
      assertEquals((byte) i, copies[i].get(0));
      assertEquals((byte) (i + size - 1), copies[i].get(size - 1));
    }
  }

  @Test
  void shouldCopyResultsLargerThanAQuarterChunkToTheHeap() {
    final ResultArena arena = new ResultArena();
    final ByteBuffer large = arena.copy(bytes(ResultArena.CHUNK_BYTES / 4 + 1, 3));
    assertFalse(large.isDirect());
    assertEquals(ByteOrder.LITTLE_ENDIAN, large.order());
    assertEquals(ResultArena.CHUNK_BYTES / 4 + 1, large.remaining());
    assertEquals((byte) 3, large.get(0));
  }
}
