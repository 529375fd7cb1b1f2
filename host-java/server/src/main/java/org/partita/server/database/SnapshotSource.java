package org.partita.server.database;

import java.io.IOException;

/**
 * One partition's snapshot chunks as recovery reads them back (the host's
 * snapshot reader): each chunk whole and checked, in the order written.
 *
 * <p>Thread model: used by one thread (the partition's site) at a time.
 */
public interface SnapshotSource {
  /** The next chunk, or null after the last. */
  byte[] next() throws IOException;

  /**
   * The partition's client de-duplication table at the cut, as
   * {@link SnapshotSink#dedupTable} was given it, or null when the snapshot
   * holds none (written before snapshots kept it, or a source that is no
   * recovery's: a restore, whose rows come from another history).
   */
  default byte[] dedupTable() throws IOException {
    return null;
  }

  /** Where {@link #dedupTable} comes from, for the message of a table that does not load (say "file F"). */
  default String dedupTableAt() {
    return "the de-duplication table of the stream";
  }

  /**
   * Where the chunk {@link #next} returned last came from, for the message of a chunk the engine
   * refuses (say "file F, offset N"); "chunk N of the stream" unless the source knows better.
   */
  default String lastChunkAt(long chunkNumber) {
    return "chunk " + chunkNumber + " of the stream";
  }
}
