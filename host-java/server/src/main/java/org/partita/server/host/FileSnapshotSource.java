package org.partita.server.host;

import java.io.IOException;
import org.partita.server.database.SnapshotSource;
import org.partita.server.durability.SnapshotStore;

/**
 * A partition's chunks read from its snapshot file, each frame's checksum checked; a chunk the
 * engine refuses is named by file and offset. Used by one site thread at a time, like the reader.
 */
record FileSnapshotSource(SnapshotStore.ChunkReader reader) implements SnapshotSource {
  @Override
  public byte[] next() throws IOException {
    return reader.next();
  }

  @Override
  public String lastChunkAt(long chunkNumber) {
    return reader.lastChunkAt();
  }
}
