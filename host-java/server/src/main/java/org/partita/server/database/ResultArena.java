package org.partita.server.database;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a site copies the engine's results: bump allocation in direct
 * memory chunks, so a transaction's result bytes are copied out of the
 * engine's reused buffer exactly once, into memory the network can write to
 * a socket without copying again (a heap copy would be copied a second time
 * into a direct buffer on the way out), and without a zeroed heap array per
 * call.
 *
 * <p>A copy is a slice that keeps its chunk reachable: a chunk's memory is
 * returned by the garbage collector once no slice of it is referenced, so
 * callers never release anything. A chunk holds thousands of typical
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

  private ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);

  /** A private, little-endian copy of {@code source}'s remaining bytes (its position is not moved). */
  ByteBuffer copy(ByteBuffer source) {
    final int size = source.remaining();
    if (size > CHUNK_BYTES / 4) {
      return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN).put(source.duplicate()).flip();
    }
    if (chunk.remaining() < size) {
      chunk = ByteBuffer.allocateDirect(CHUNK_BYTES);
    }
    final int start = chunk.position();
    chunk.put(source.duplicate());
    return chunk.slice(start, size).order(ByteOrder.LITTLE_ENDIAN);
  }
}
