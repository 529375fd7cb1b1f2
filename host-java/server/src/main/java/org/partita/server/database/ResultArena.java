package org.partita.server.database;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.partita.client.ResultTable;
import org.partita.client.ResultTables;

/**
 * Where a site copies the engine's results: bump allocation in direct
 * memory chunks, so a transaction's result bytes are copied out of the
 * engine's reused buffer exactly once, into memory the network can write to
 * a socket without copying again (a heap copy would be copied a second time
 * into a direct buffer on the way out), and without a zeroed heap array per
 * call.
 *
 * <p>The tables read from a chunk share one read-only view of it (no view
 * per result set) and keep the chunk reachable: a chunk's memory is returned
 * by the garbage collector once no table of it is referenced, so callers
 * never release anything. A chunk holds thousands of typical
 * answers and so dies young, long before the heap's young collections would
 * promote it. A result set larger than a quarter chunk is copied to the
 * heap instead: a stream of large results in direct memory would not drive
 * collections (the heap barely grows) and could reach the direct-memory
 * limit, whose remedy is a full collection. Such results are copied once
 * more on their way to a socket.
 *
 * <p>Site-confined (one arena per site, used only on its thread).
 */
final class ResultArena {
  static final int CHUNK_BYTES = 256 * 1024;

  private ByteBuffer chunk;
  // A read-only little-endian view of chunk, shared by every table parsed
  // from it: bytes once copied there never change, and its limit never moves.
  private ByteBuffer chunkView;

  ResultArena() {
    newChunk();
  }

  private void newChunk() {
    chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
    chunkView = chunk.asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The tables of the result set {@code source} holds (its remaining bytes;
   * its position is not moved), read from a private copy: a result set in a
   * chunk costs the tables' array and one object per table, no view of its own.
   *
   * @throws org.partita.client.ResultFormatException when the bytes are not one result set
   */
  ResultTable[] tables(ByteBuffer source) {
    return tables(source, null);
  }

  /**
   * {@link #tables(ByteBuffer)} re-pointing the tables of {@code reuse} (may
   * be null) when the result set is in a chunk and has as many tables; then
   * returns {@code reuse}.
   */
  ResultTable[] tables(ByteBuffer source, ResultTable[] reuse) {
    final int size = source.remaining();
    if (size > CHUNK_BYTES / 4) {
      return ResultTables.parse(heapCopy(source));
    }
    final int start = append(source);
    return ResultTables.parseShared(reuse, chunkView, start, start + size);
  }

  private static ByteBuffer heapCopy(ByteBuffer source) {
    return ByteBuffer.allocate(source.remaining()).order(ByteOrder.LITTLE_ENDIAN).put(source.duplicate()).flip();
  }

  /** Copies {@code source}'s remaining bytes into the chunk (a new one when they do not fit); returns where. */
  private int append(ByteBuffer source) {
    final int size = source.remaining();
    if (chunk.remaining() < size) {
      newChunk();
    }
    final int start = chunk.position();
    chunk.put(start, source, source.position(), size).position(start + size);
    return start;
  }
}
