package org.partita.server.durability;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * Deleting the command log segments a snapshot makes unneeded
 * (docs/durability.md, "Log truncation"), and what recovery must know of
 * it.
 *
 * <p>A segment is deleted only when every record in it is within a
 * snapshot's cut (each record's TxnId at or before the cut of its
 * partition), only as a prefix of the log (numbering stays contiguous), never
 * the segment being written (the highest), and only after the snapshot's
 * manifest is durable. Before deleting anything it writes the mark
 * {@code commandlog/TRUNCATED} (fsynced, renamed, directory fsynced): the
 * number of the first segment kept and the cut that covers everything
 * before it. Recovery then expects the log to begin at that segment, deletes
 * any older one a crash left behind, and refuses to start unless the
 * snapshot it loaded covers that cut.
 *
 * <p>Stateless; one truncation at a time (the host's snapshot service).
 */
public final class LogTruncation {
  private static final Logger LOG = Logger.getLogger(LogTruncation.class.getName());
  /** The mark's file name in the log's directory. */
  public static final String MARK = "TRUNCATED";

  /**
   * What the mark says: the log begins at {@code firstSegment}; {@code cut}
   * covers every record before it; after a snapshot restore,
   * {@code oldestSnapshot} names the snapshot of the restored state, and
   * recovery may load no older one (null otherwise).
   */
  public record Mark(long firstSegment, List<TxnId> cut, String oldestSnapshot) {
    public Mark(long firstSegment, List<TxnId> cut) {
      this(firstSegment, cut, null);
    }
  }

  private LogTruncation() {}

  /**
   * Deletes the oldest segments of {@code dataDir}'s log whose records are
   * all within {@code cut} (by partition; null: nothing of that partition).
   * Returns how many were deleted.
   */
  public static int truncate(Path dataDir, List<TxnId> cut) throws IOException {
    final Mark previous = readMark(dataDir);
    return truncate(dataDir, cut, previous == null ? null : previous.oldestSnapshot());
  }

  /** As {@link #truncate(Path, List)}, the mark keeping {@code oldestSnapshot}. */
  private static int truncate(Path dataDir, List<TxnId> cut, String oldestSnapshot) throws IOException {
    final Path directory = SegmentFiles.directory(dataDir);
    final List<Path> segments = SegmentFiles.segments(directory);
    final List<Path> covered = new ArrayList<>();
    for (int i = 0; i + 1 < segments.size(); i++) {  // never the last: it is being written
      if (!within(segments.get(i), cut)) {
        break;
      }
      covered.add(segments.get(i));
    }
    if (covered.isEmpty()) {
      return 0;
    }
    final long firstKept = SegmentFiles.number(segments.get(covered.size()));
    writeMark(directory, new Mark(firstKept, cut, oldestSnapshot));
    CrashPoint.reach("truncation.marked");
    for (Path segment : covered) {
      Files.delete(segment);
      CrashPoint.reach("truncation.segment-deleted");
    }
    SegmentFiles.syncDirectory(directory);
    LOG.info("command log: deleted " + covered.size() + " segment(s) before " + SegmentFiles.name(firstKept)
        + ": every record in them is in a snapshot");
    return covered.size();
  }

  /**
   * After a snapshot restore whose result is the durable snapshot
   * {@code snapshot} with cut {@code cut}: marks that recovery must load
   * that snapshot or a newer one (older ones lack the restored rows, and the
   * log before the cut does not hold them either), then deletes the
   * segments the cut holds. Once this returns the restore is durable.
   */
  public static void requireSnapshot(Path dataDir, String snapshot, List<TxnId> cut) throws IOException {
    final Path directory = SegmentFiles.directory(dataDir);
    final List<Path> segments = SegmentFiles.segments(directory);
    final long first = segments.isEmpty() ? 1 : SegmentFiles.number(segments.get(0));
    writeMark(directory, new Mark(first, cut, snapshot));
    truncate(dataDir, cut, snapshot);
  }

  /** The mark of {@code dataDir}'s log, or null when it was never truncated. */
  public static Mark readMark(Path dataDir) throws IOException {
    final Path file = SegmentFiles.directory(dataDir).resolve(MARK);
    if (!Files.exists(file)) {
      return null;
    }
    final String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n");
    try {
      final long first = Long.parseLong(lines[0].substring("first-segment ".length()).strip());
      final List<TxnId> cut = new ArrayList<>();
      String oldestSnapshot = null;
      for (int i = 1; i < lines.length; i++) {
        final String[] f = lines[i].split(" ");
        if (f[0].equals("snapshot")) {
          oldestSnapshot = f[1];
          continue;
        }
        cut.add(f[2].equals("none") ? null : new TxnId(Integer.parseInt(f[1]),
            Long.parseLong(f[2].substring(0, f[2].indexOf(':'))), Long.parseLong(f[2].substring(f[2].indexOf(':') + 1))));
      }
      return new Mark(first, cut, oldestSnapshot);
    } catch (RuntimeException e) {
      throw new IOException(file + " is malformed: " + e.getMessage(), e);
    }
  }

  /** Whether {@code loaded} (a snapshot's cut, or null for none) covers {@code required} on every partition. */
  public static boolean covers(List<TxnId> loaded, List<TxnId> required) {
    for (int p = 0; p < required.size(); p++) {
      final TxnId need = required.get(p);
      if (need == null) {
        continue;
      }
      final TxnId have = loaded == null || p >= loaded.size() ? null : loaded.get(p);
      if (have == null || have.compareTo(need) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Deletes segments numbered below {@code mark.firstSegment()} (a truncation a crash interrupted). */
  public static void finish(Path dataDir, Mark mark) throws IOException {
    final Path directory = SegmentFiles.directory(dataDir);
    for (Path segment : SegmentFiles.segments(directory)) {
      if (SegmentFiles.number(segment) < mark.firstSegment()) {
        LOG.info("command log: deleting " + segment + " (its truncation was interrupted; a snapshot holds it)");
        Files.delete(segment);
      }
    }
    SegmentFiles.syncDirectory(directory);
  }

  private static boolean within(Path segment, List<TxnId> cut) throws IOException {
    final CRC32C crc = new CRC32C();
    try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ)) {
      final MappedByteBuffer bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
      LogFormat.readSegmentHeader(bytes, crc);
      for (int offset = LogFormat.SEGMENT_HEADER_BYTES; ; ) {
        final LogFormat.Frame frame = LogFormat.readFrame(bytes, offset, crc);
        if (frame == null) {
          return true;
        }
        final TxnId id = TxnHeader.fromProto(frame.item().getHeader()).id();
        final TxnId limit = id.partition() < cut.size() ? cut.get(id.partition()) : null;
        if (limit == null || id.compareTo(limit) > 0) {
          return false;
        }
        offset = frame.end();
      }
    } catch (LogFormat.BadFrame e) {
      return false;  // not ours to judge here: recovery reports damage
    }
  }

  private static void writeMark(Path directory, Mark mark) throws IOException {
    final StringBuilder text = new StringBuilder("first-segment " + mark.firstSegment() + "\n");
    for (int p = 0; p < mark.cut().size(); p++) {
      final TxnId id = mark.cut().get(p);
      text.append("cut ").append(p).append(' ').append(id == null ? "none" : id.epoch() + ":" + id.sequence())
          .append('\n');
    }
    if (mark.oldestSnapshot() != null) {
      text.append("snapshot ").append(mark.oldestSnapshot()).append('\n');
    }
    final Path temporary = directory.resolve(MARK + ".tmp");
    try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      channel.write(java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
      channel.force(true);
    }
    Files.move(temporary, directory.resolve(MARK), StandardCopyOption.ATOMIC_MOVE);
    SegmentFiles.syncDirectory(directory);
  }
}
