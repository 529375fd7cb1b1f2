package org.partita.server.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32C;
import org.partita.server.txn.TxnId;

/**
 * A snapshot's manifest (docs/durability.md, "Snapshots"): the file written
 * last, whose presence makes the snapshot complete. Text, one fact per line,
 * ending with the CRC32C of every line before it:
 *
 * <pre>
 * partita-snapshot 1
 * created-millis 1764000000000
 * catalog-version 3
 * partitions 2
 * cut 0 2:1733          (partition, epoch:sequence of its last transaction in the snapshot; "none")
 * cut 1 none
 * file catalog.bin 1234 9a3b0c1d 0        (name, bytes, CRC32C of the whole file in hex, chunks)
 * file schema-changes.bin 96 5e6f7a8b 0
 * file partition-0.snap 52428800 0f1e2d3c 100
 * file dedup-0.bin 4096 1a2b3c4d 0        (partition 0's client de-duplication table at the cut)
 * crc 7c0ffee0
 * </pre>
 *
 * Immutable.
 *
 * @param createdMillis when the snapshot was cut (wall clock)
 * @param catalogVersion the catalog version at the cut
 * @param cuts by partition, the last transaction in the snapshot (null: none)
 * @param files the snapshot's files with their sizes and checksums
 */
public record SnapshotManifest(long createdMillis, long catalogVersion, List<TxnId> cuts, List<FileEntry> files,
                               List<Integer> copies) {
  /** The manifest's file name in a snapshot directory. */
  public static final String NAME = "MANIFEST";
  /** The engine catalog the snapshot was taken with. */
  public static final String CATALOG_FILE = "catalog.bin";
  private static final String TEMPORARY = "MANIFEST.tmp";
  private static final String FORMAT = "partita-snapshot 1";

  /** One file of a snapshot. */
  public record FileEntry(String name, long bytes, int crc, long chunks) {}

  public SnapshotManifest {
    cuts = Collections.unmodifiableList(new ArrayList<>(cuts));
    files = List.copyOf(files);
    copies = List.copyOf(copies);
  }

  /** A snapshot of every partition. */
  public SnapshotManifest(long createdMillis, long catalogVersion, List<TxnId> cuts, List<FileEntry> files) {
    this(createdMillis, catalogVersion, cuts, files, every(cuts.size()));
  }

  /** Partitions 0 .. {@code partitions} - 1. */
  public static List<Integer> every(int partitions) {
    final List<Integer> all = new ArrayList<>(partitions);
    for (int p = 0; p < partitions; p++) {
      all.add(p);
    }
    return all;
  }

  /**
   * Whether this snapshot holds every partition (one host's); a cluster
   * host's holds only the copies that host had ({@link #copies}), and a
   * single host never loads it.
   */
  public boolean holdsEveryPartition() {
    return copies.equals(every(cuts.size()));
  }

  /** The file name of partition {@code p}'s chunks. */
  public static String partitionFile(int partition) {
    return "partition-" + partition + ".snap";
  }

  /**
   * The file name of partition {@code p}'s client de-duplication table at
   * the cut (docs/durability.md, "Snapshots"); snapshots written before
   * they kept it have none.
   */
  public static String dedupFile(int partition) {
    return "dedup-" + partition + ".bin";
  }

  /** Whether the snapshot holds partition {@code p}'s de-duplication table ({@link #dedupFile}). */
  public boolean holdsDedupTable(int partition) {
    final String name = dedupFile(partition);
    return files.stream().anyMatch(f -> f.name().equals(name));
  }

  /** Bytes of every file. */
  public long bytes() {
    long total = 0;
    for (FileEntry f : files) {
      total += f.bytes();
    }
    return total;
  }

  /**
   * Whether recovery can rebuild the catalog this snapshot was taken with:
   * it was taken with the starting schema (version 1), or it holds the
   * schema changes since ({@link SchemaChangesFile}; snapshots written
   * before they kept them do not).
   */
  public boolean rebuildsCatalog() {
    return catalogVersion == 1 || files.stream().anyMatch(f -> f.name().equals(SchemaChangesFile.NAME));
  }

  /** The entry of file {@code name}. */
  public FileEntry file(String name) throws SnapshotCorruptException {
    for (FileEntry f : files) {
      if (f.name().equals(name)) {
        return f;
      }
    }
    throw new SnapshotCorruptException(null, "the manifest lists no file " + name);
  }

  /**
   * Writes the manifest into {@code directory} as the last step of a
   * snapshot: a temporary file, fsynced, renamed into place, the directory
   * fsynced. Crash points {@code snapshot.manifest-written} (before the
   * rename) and {@code snapshot.manifest-renamed} (before the directory sync).
   */
  public void writeTo(Path directory) throws IOException {
    final Path temporary = directory.resolve(TEMPORARY);
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(text().getBytes(StandardCharsets.UTF_8));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      channel.force(true);
    }
    CrashPoint.reach("snapshot.manifest-written");
    Files.move(temporary, directory.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
    CrashPoint.reach("snapshot.manifest-renamed");
    SegmentFiles.syncDirectory(directory);
  }

  private String text() {
    final StringBuilder out = new StringBuilder();
    out.append(FORMAT).append('\n');
    out.append("created-millis ").append(createdMillis).append('\n');
    out.append("catalog-version ").append(catalogVersion).append('\n');
    out.append("partitions ").append(cuts.size()).append('\n');
    for (int p = 0; p < cuts.size(); p++) {
      final TxnId cut = cuts.get(p);
      out.append("cut ").append(p).append(' ')
          .append(cut == null ? "none" : cut.epoch() + ":" + cut.sequence()).append('\n');
    }
    if (!holdsEveryPartition()) {
      out.append("copies");
      copies.forEach(p -> out.append(' ').append(p));
      out.append('\n');
    }
    for (FileEntry f : files) {
      out.append("file ").append(f.name()).append(' ').append(f.bytes()).append(' ')
          .append(String.format("%08x", f.crc())).append(' ').append(f.chunks()).append('\n');
    }
    final String body = out.toString();
    return body + "crc " + String.format("%08x", crc(body)) + "\n";
  }

  private static int crc(String text) {
    final CRC32C crc = new CRC32C();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }

  /**
   * Reads the manifest of {@code directory}.
   *
   * @throws SnapshotCorruptException naming the file and line when it is damaged or malformed
   */
  public static SnapshotManifest read(Path directory) throws IOException, SnapshotCorruptException {
    final Path file = directory.resolve(NAME);
    final String text = Files.readString(file, StandardCharsets.UTF_8);
    final int crcLine = text.lastIndexOf("crc ");
    if (crcLine < 0 || !text.startsWith(FORMAT + "\n")) {
      throw new SnapshotCorruptException(file, "not a Partita snapshot manifest (format line or crc line missing)");
    }
    final String body = text.substring(0, crcLine);
    if ((int) Long.parseLong(text.substring(crcLine + 4).strip(), 16) != crc(body)) {
      throw new SnapshotCorruptException(file, "its checksum does not match its contents");
    }
    return parse(file, body.split("\n"));
  }

  private static SnapshotManifest parse(Path file, String[] lines) throws SnapshotCorruptException {
    long created = -1;
    long version = -1;
    final List<TxnId> cuts = new ArrayList<>();
    final List<FileEntry> files = new ArrayList<>();
    List<Integer> copies = null;
    for (int i = 1; i < lines.length; i++) {
      final String[] f = lines[i].split(" ");
      try {
        switch (f[0]) {
          case "created-millis" -> created = Long.parseLong(f[1]);
          case "catalog-version" -> version = Long.parseLong(f[1]);
          case "partitions" -> Integer.parseInt(f[1]);
          case "cut" -> cuts.add(parseCut(Integer.parseInt(f[1]), f[2]));
          case "copies" -> copies = parseCopies(f);
          case "file" -> files.add(new FileEntry(f[1], Long.parseLong(f[2]), (int) Long.parseLong(f[3], 16),
              Long.parseLong(f[4])));
          default -> throw new SnapshotCorruptException(file, "line " + (i + 1) + ": unknown '" + f[0] + "'");
        }
      } catch (RuntimeException e) {
        throw new SnapshotCorruptException(file, "line " + (i + 1) + " is malformed: '" + lines[i] + "'");
      }
    }
    if (created < 0 || version < 0 || cuts.isEmpty()) {
      throw new SnapshotCorruptException(file, "it lacks its creation time, catalog version or cuts");
    }
    if (copies != null && copies.stream().anyMatch(p -> p >= cuts.size())) {
      throw new SnapshotCorruptException(file, "its copies " + copies + " name a partition beyond its "
          + cuts.size());
    }
    return new SnapshotManifest(created, version, cuts, files, copies == null ? every(cuts.size()) : copies);
  }

  /** "copies 0 2": ascending partition numbers, at least one. */
  private static List<Integer> parseCopies(String[] fields) {
    final List<Integer> copies = new ArrayList<>();
    for (int i = 1; i < fields.length; i++) {
      final int p = Integer.parseInt(fields[i]);
      if (p < 0 || !copies.isEmpty() && p <= copies.get(copies.size() - 1)) {
        throw new IllegalArgumentException("copies out of order");
      }
      copies.add(p);
    }
    if (copies.isEmpty()) {
      throw new IllegalArgumentException("no copies");
    }
    return copies;
  }

  private static TxnId parseCut(int partition, String text) {
    if (text.equals("none")) {
      return null;
    }
    final int colon = text.indexOf(':');
    return new TxnId(partition, Long.parseLong(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
  }
}
