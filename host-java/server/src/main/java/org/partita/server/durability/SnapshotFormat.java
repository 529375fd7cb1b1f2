package org.partita.server.durability;

import java.nio.charset.StandardCharsets;

/**
 * The layout of a snapshot's partition files (docs/durability.md,
 * "Snapshots"): an 8-byte magic, then one frame per chunk,
 * {@code [u32 length][u32 CRC32C of the chunk][chunk bytes]}, little-endian.
 * Constants only.
 */
final class SnapshotFormat {
  /** The first bytes of every partition file. */
  static final byte[] MAGIC = "PSNAP001".getBytes(StandardCharsets.US_ASCII);
  /** Bytes before a chunk in its frame. */
  static final int FRAME_HEADER_BYTES = 8;
  /** No chunk is larger (the engine makes them about 512 KiB; one very long row may exceed that). */
  static final int MAX_CHUNK_BYTES = 256 << 20;

  private SnapshotFormat() {}
}
