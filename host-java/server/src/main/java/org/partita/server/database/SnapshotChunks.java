package org.partita.server.database;

import java.nio.charset.StandardCharsets;

/** Reading the header of a snapshot chunk (docs/engine-formats.md, "Snapshot stream"). Stateless. */
final class SnapshotChunks {
  private SnapshotChunks() {}

  /**
   * The table a chunk holds rows of.
   *
   * @throws IllegalArgumentException when the chunk is too short to name one
   */
  static String table(byte[] chunk) {
    if (chunk.length < 3) {
      throw new IllegalArgumentException("a snapshot chunk of " + chunk.length + " bytes names no table");
    }
    final int length = (chunk[1] & 0xFF) | (chunk[2] & 0xFF) << 8;
    if (chunk.length < 3 + length) {
      throw new IllegalArgumentException("a snapshot chunk of " + chunk.length + " bytes ends in its table name");
    }
    return new String(chunk, 3, length, StandardCharsets.UTF_8);
  }
}
