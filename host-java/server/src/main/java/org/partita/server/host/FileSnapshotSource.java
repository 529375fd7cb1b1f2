package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Logger;
import org.partita.server.database.SnapshotSource;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;

/**
 * A partition's chunks read from its snapshot file, each frame's checksum checked; a chunk the
 * engine refuses is named by file and offset. With {@code dedupFile} (null: the snapshot holds no
 * table, or the table is not to be loaded), the partition's de-duplication table at the cut, read
 * whole from that file (its checksum was verified against the manifest before). Used by one site
 * thread at a time, like the reader.
 */
record FileSnapshotSource(SnapshotStore.ChunkReader reader, Path dedupFile) implements SnapshotSource, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(FileSnapshotSource.class.getName());

  /** The chunks of {@code reader} without a de-duplication table. */
  FileSnapshotSource(SnapshotStore.ChunkReader reader) {
    this(reader, null);
  }

  /**
   * Recovery's source of {@code partition} from {@code snapshot} (whose
   * manifest is {@code manifest}, verified): its chunks and, when the
   * snapshot holds it, its de-duplication table; a snapshot written before
   * snapshots kept the table is said in the log (the copy's table starts
   * empty). The caller closes it.
   */
  static FileSnapshotSource forRecovery(Path snapshot, SnapshotManifest manifest, int partition)
      throws IOException, SnapshotCorruptException {
    final Path dedup;
    if (manifest.holdsDedupTable(partition)) {
      dedup = snapshot.resolve(SnapshotManifest.dedupFile(partition));
    } else {
      dedup = null;
      LOG.info("recovery: snapshot " + snapshot.getFileName() + " holds no client de-duplication table of partition "
          + partition + " (written before snapshots kept it): the table starts empty, and a call sent again from"
          + " before its cut runs as new");
    }
    return new FileSnapshotSource(new SnapshotStore.ChunkReader(snapshot.resolve(
        SnapshotManifest.partitionFile(partition))), dedup);
  }

  @Override
  public byte[] next() throws IOException {
    return reader.next();
  }

  @Override
  public byte[] dedupTable() throws IOException {
    return dedupFile == null ? null : Files.readAllBytes(dedupFile);
  }

  @Override
  public String dedupTableAt() {
    return "de-duplication table file " + dedupFile;
  }

  @Override
  public String lastChunkAt(long chunkNumber) {
    return reader.lastChunkAt();
  }

  /** Closes the reader. */
  @Override
  public void close() throws IOException {
    reader.close();
  }
}
