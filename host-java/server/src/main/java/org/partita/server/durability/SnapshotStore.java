package org.partita.server.durability;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.logging.Logger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The snapshots of a data directory ({@code DIR/snapshots/}, docs/durability.md
 * "Snapshots"): names for new ones, the complete ones newest first, removal
 * of incomplete ones, and reading one back with every checksum verified.
 *
 * <p>Stateless; thread-safe.
 */
public final class SnapshotStore {
  private static final Logger LOG = Logger.getLogger(SnapshotStore.class.getName());
  private static final DateTimeFormatter NAME_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);

  private SnapshotStore() {}

  /** The snapshots folder of {@code dataDir}. */
  public static Path directory(Path dataDir) {
    return dataDir.resolve("snapshots");
  }

  /** A new snapshot's directory under {@code snapshots}, named by the time (UTC) so that names sort by age. */
  public static Path newSnapshot(Path snapshots) {
    return snapshots.resolve("snapshot-" + NAME_TIME.format(Instant.now()));
  }

  /** Whether {@code snapshot} has its manifest (it is complete, though not yet verified). */
  public static boolean complete(Path snapshot) {
    return Files.isRegularFile(snapshot.resolve(SnapshotManifest.NAME));
  }

  /** The complete snapshots under {@code snapshots}, newest (by name) first; empty when there is no folder. */
  public static List<Path> completeSnapshots(Path snapshots) throws IOException {
    if (!Files.isDirectory(snapshots)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(snapshots)) {
      return entries.filter(p -> p.getFileName().toString().startsWith("snapshot-") && complete(p))
          .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed()).toList();
    }
  }

  /**
   * Removes every snapshot directory without a manifest under
   * {@code snapshots} (a snapshot that was being written when the host
   * stopped); returns how many. Logged.
   */
  public static int removeIncomplete(Path snapshots) throws IOException {
    if (!Files.isDirectory(snapshots)) {
      return 0;
    }
    final List<Path> incomplete;
    try (Stream<Path> entries = Files.list(snapshots)) {
      incomplete = entries.filter(p -> p.getFileName().toString().startsWith("snapshot-") && !complete(p)).toList();
    }
    for (Path p : incomplete) {
      LOG.info("snapshot " + p + " has no manifest (it was being written when the host stopped); removing it");
      deleteDirectory(p);
    }
    return incomplete.size();
  }

  /**
   * Checks every file the manifest of {@code snapshot} lists: present, of
   * the listed size and checksum.
   *
   * @throws SnapshotCorruptException naming the first file that is not
   */
  public static void verify(Path snapshot, SnapshotManifest manifest) throws IOException, SnapshotCorruptException {
    for (SnapshotManifest.FileEntry entry : manifest.files()) {
      final Path file = snapshot.resolve(entry.name());
      if (!Files.isRegularFile(file)) {
        throw new SnapshotCorruptException(file, "missing (the manifest lists it)");
      }
      if (Files.size(file) != entry.bytes()) {
        throw new SnapshotCorruptException(file, Files.size(file) + " bytes, the manifest says " + entry.bytes());
      }
      final CRC32C crc = new CRC32C();
      final byte[] buffer = new byte[1 << 20];
      try (InputStream in = Files.newInputStream(file)) {
        for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
          crc.update(buffer, 0, n);
        }
      }
      if ((int) crc.getValue() != entry.crc()) {
        throw new SnapshotCorruptException(file, "its checksum does not match the manifest's (the file is damaged)");
      }
    }
  }

  /** One partition file's chunks, each frame's checksum verified as it is read. Not thread-safe. */
  public static final class ChunkReader implements AutoCloseable {
    private final Path file;
    private final DataInputStream in;
    private long offset;
    private long lastChunkOffset = -1;

    public ChunkReader(Path file) throws IOException, SnapshotCorruptException {
      this.file = file;
      this.in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 20));
      final byte[] magic = new byte[SnapshotFormat.MAGIC.length];
      try {
        in.readFully(magic);
      } catch (EOFException e) {
        in.close();
        throw new SnapshotCorruptException(file, "shorter than its header");
      }
      if (!Arrays.equals(magic, SnapshotFormat.MAGIC)) {
        in.close();
        throw new SnapshotCorruptException(file, "not a Partita snapshot partition file");
      }
      offset = magic.length;
    }

    /**
     * The next chunk, or null at the end of the file.
     *
     * @throws IOException wrapping a {@link SnapshotCorruptException} naming the offset of a bad frame
     */
    public byte[] next() throws IOException {
      final byte[] header = new byte[SnapshotFormat.FRAME_HEADER_BYTES];
      final int first = in.read(header, 0, 1);
      if (first < 0) {
        return null;
      }
      try {
        in.readFully(header, 1, header.length - 1);
        final ByteBuffer h = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        final int length = h.getInt();
        final int expected = h.getInt();
        if (length < 0 || length > SnapshotFormat.MAX_CHUNK_BYTES) {
          throw corrupt("a chunk length of " + length + " bytes");
        }
        final byte[] chunk = new byte[length];
        in.readFully(chunk);
        final CRC32C crc = new CRC32C();
        crc.update(chunk);
        if ((int) crc.getValue() != expected) {
          throw corrupt("a chunk whose checksum does not match (the file is damaged)");
        }
        lastChunkOffset = offset;
        offset += header.length + length;
        return chunk;
      } catch (EOFException e) {
        throw corrupt("a chunk cut short by the end of the file");
      }
    }

    /** "file F, offset N": where the frame of the chunk {@link #next} returned last begins. */
    public String lastChunkAt() {
      return "file " + file + ", offset " + lastChunkOffset;
    }

    private IOException corrupt(String what) {
      return new IOException(new SnapshotCorruptException(file, "offset " + offset + ": " + what));
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  /** Removes a snapshot (its manifest first, so that a crash half-way leaves an incomplete one, cleaned at start). */
  public static void remove(Path snapshot) throws IOException {
    Files.deleteIfExists(snapshot.resolve(SnapshotManifest.NAME));
    SegmentFiles.syncDirectory(snapshot);
    deleteDirectory(snapshot);
  }

  /** Deletes {@code directory} and everything in it; failures are logged, not thrown (best effort). */
  static void deleteDirectory(Path directory) {
    try (Stream<Path> walk = Files.walk(directory)) {
      final List<Path> paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
      for (Path p : paths) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      LOG.warning("could not remove " + directory + ": " + e.getMessage());
    }
  }
}
