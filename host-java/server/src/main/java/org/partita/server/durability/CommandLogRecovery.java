package org.partita.server.durability;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * Reads a host's command log back at start (docs/durability.md,
 * "Recovery"): checks that the segments are numbered 1, 2, ... with none
 * missing and were written for this partition count and starting schema,
 * hands every record to a sink in log order, cuts a torn tail, and refuses
 * (LogCorruptException, naming file and offset) on any other damage.
 *
 * <p>A transaction that an {@code Aborted} record names (rolled back by its
 * time limit or a cancel, an outcome replay cannot reproduce) is not handed
 * to the sink, nor are the markers: a first pass over the segments collects
 * them, since a marker follows its transaction's record.
 *
 * <p>A damaged record is a torn tail when it is in the last segment and no
 * intact record follows it there: the host stopped in the middle of a
 * write, and nothing after it was ever acknowledged. The file is cut at
 * the damaged record's offset (a log line says so). Damage anywhere else
 * means records that were synced are lost: recovery refuses to start.
 *
 * <p>Thread model: called once, on the starting thread.
 */
public final class CommandLogRecovery {
  private static final Logger LOG = Logger.getLogger(CommandLogRecovery.class.getName());

  /**
   * What the log held.
   *
   * @param records records read (aborted transactions and their markers included)
   * @param segments segment files read
   * @param lastEpoch the epoch of the last run that wrote a segment (0 when there is no log)
   * @param nextSegment the number the next segment written takes
   */
  public record Result(long records, int segments, long lastEpoch, long nextSegment) {}

  private final Path directory;
  private final int partitions;
  private final int schemaFingerprint;
  private final CRC32C crc = new CRC32C();
  /** Transactions rolled back by time or cancel: skipped. */
  private final Set<TxnId> aborted = new HashSet<>();
  private long skipped;
  private long firstSegment = 1;

  private CommandLogRecovery(Path dataDir, int partitions, int schemaFingerprint) {
    this.directory = SegmentFiles.directory(dataDir);
    this.partitions = partitions;
    this.schemaFingerprint = schemaFingerprint;
  }

  /** The directory of {@code dataDir}'s command log. */
  public static Path directory(Path dataDir) {
    return SegmentFiles.directory(dataDir);
  }

  /** True iff {@code dataDir} holds command log segments. */
  public static boolean exists(Path dataDir) throws IOException {
    return !SegmentFiles.segments(SegmentFiles.directory(dataDir)).isEmpty();
  }

  /**
   * The latest epoch an intact segment header of {@code dataDir}'s log
   * names (0 when there is none): a run that continues the log takes a
   * later one. {@link #read} checks everything else.
   */
  public static long lastEpoch(Path dataDir) throws IOException {
    long epoch = 0;
    final CRC32C crc = new CRC32C();
    for (Path file : SegmentFiles.segments(SegmentFiles.directory(dataDir))) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        final MappedByteBuffer bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0,
            Math.min(channel.size(), LogFormat.SEGMENT_HEADER_BYTES));
        epoch = Math.max(epoch, LogFormat.readSegmentHeader(bytes, crc).epoch());
      } catch (LogFormat.BadFrame e) {
        // Not an intact header: read() says where and why, or removes an unused last segment.
      }
    }
    return epoch;
  }

  /**
   * Reads the log in {@code dataDir} (none: nothing to read) and hands its
   * records to {@code sink} in log order.
   *
   * @throws LogCorruptException when the log cannot be replayed as it is
   */
  public static Result read(Path dataDir, int partitions, int schemaFingerprint, Consumer<WorkItem> sink)
      throws IOException, LogCorruptException {
    return read(dataDir, partitions, schemaFingerprint, 1, sink);
  }

  /**
   * As {@link #read(Path, int, int, Consumer)} for a log that begins at
   * segment {@code firstSegment} (the segments before it were deleted after a
   * snapshot held their records: {@link LogTruncation}).
   */
  public static Result read(Path dataDir, int partitions, int schemaFingerprint, long firstSegment,
      Consumer<WorkItem> sink) throws IOException, LogCorruptException {
    final CommandLogRecovery recovery = new CommandLogRecovery(dataDir, partitions, schemaFingerprint);
    recovery.firstSegment = firstSegment;
    return recovery.read(sink);
  }

  private Result read(Consumer<WorkItem> sink) throws IOException, LogCorruptException {
    for (Path leftover : SegmentFiles.leftovers(directory)) {
      LOG.info("command log: removing " + leftover + " (preallocated, never written)");
      Files.delete(leftover);
    }
    final List<Path> segments = SegmentFiles.segments(directory);
    checkNumbering(segments);
    collectAborted(segments);
    long records = 0;
    long lastEpoch = 0;
    int read = 0;
    for (int i = 0; i < segments.size(); i++) {
      final Path file = segments.get(i);
      final boolean last = i == segments.size() - 1;
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        final MappedByteBuffer bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        if (last && isZeros(bytes, 0)) {
          LOG.info("command log: removing " + file + " (taken into the log but never written)");
          channel.close();
          Files.delete(file);
          SegmentFiles.syncDirectory(directory);
          return new Result(records, read, lastEpoch, SegmentFiles.number(file));
        }
        final LogFormat.SegmentHeader header = header(file, bytes, lastEpoch);
        lastEpoch = header.epoch();
        records += records(file, channel, bytes, last, sink);
        read++;
      }
    }
    final long next = segments.isEmpty() ? firstSegment : SegmentFiles.number(segments.get(segments.size() - 1)) + 1;
    if (!aborted.isEmpty()) {
      LOG.info("command log: skipped " + skipped + " record(s) of " + aborted.size() + " transaction(s) rolled back"
          + " by a time limit or a cancel");
    }
    return new Result(records, read, lastEpoch, next);
  }

  private void collectAborted(List<Path> segments) throws IOException {
    for (Path file : segments) {
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        LogFormat.abortedTransactions(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()), crc, aborted);
      }
    }
  }

  /** True iff {@code item} is an abort marker or belongs to a transaction one names. */
  private boolean skipped(WorkItem item) {
    if (item.hasAborted()) {
      return true;
    }
    if (aborted.isEmpty()) {
      return false;
    }
    final org.partita.proto.txn.TxnHeader header = item.hasMultiPartition()
        ? item.getMultiPartition().getCoordinator() : item.getHeader();
    return aborted.contains(TxnHeader.fromProto(header).id());
  }

  private void checkNumbering(List<Path> segments) throws LogCorruptException {
    for (int i = 0; i < segments.size(); i++) {
      final long expected = firstSegment + i;
      final long found = SegmentFiles.number(segments.get(i));
      if (found != expected) {
        throw new LogCorruptException(directory.resolve(SegmentFiles.name(expected)), -1, "this segment is missing"
            + " (the log goes on with " + segments.get(i).getFileName() + "); the transactions it held would be lost");
      }
    }
  }

  private LogFormat.SegmentHeader header(Path file, MappedByteBuffer bytes, long previousEpoch)
      throws LogCorruptException {
    final LogFormat.SegmentHeader header;
    try {
      header = LogFormat.readSegmentHeader(bytes, crc);
    } catch (LogFormat.BadFrame e) {
      throw new LogCorruptException(file, 0, e.getMessage());
    }
    if (header.number() != SegmentFiles.number(file)) {
      throw new LogCorruptException(file, 0, "its header says segment " + header.number());
    }
    if (header.partitions() != partitions) {
      throw new LogCorruptException(file, 0, "written by a host of " + header.partitions() + " partition(s); start"
          + " with --sites " + header.partitions() + " to recover it");
    }
    if (header.schemaFingerprint() != schemaFingerprint) {
      throw new LogCorruptException(file, 0, "written for another starting schema (fingerprint "
          + Integer.toHexString(header.schemaFingerprint()) + ", these --schema files make "
          + Integer.toHexString(schemaFingerprint) + "); start with the --schema files the log was written with");
    }
    if (header.epoch() < previousEpoch) {
      throw new LogCorruptException(file, 0, "epoch " + header.epoch() + " after a segment of epoch "
          + previousEpoch);
    }
    return header;
  }

  /** Hands the records of one segment to {@code sink}; cuts a torn tail of the last one. */
  private long records(Path file, FileChannel channel, MappedByteBuffer bytes, boolean last, Consumer<WorkItem> sink)
      throws IOException, LogCorruptException {
    long count = 0;
    int offset = LogFormat.SEGMENT_HEADER_BYTES;
    while (true) {
      final LogFormat.Frame frame;
      try {
        frame = LogFormat.readFrame(bytes, offset, crc);
      } catch (LogFormat.BadFrame e) {
        if (!last || intactFrameAfter(bytes, offset)) {
          throw new LogCorruptException(file, offset, e.getMessage()
              + (last ? ", with intact records after it" : " in a segment that is not the last"));
        }
        LOG.warning("command log: cut a torn tail from " + file + " at offset " + offset + " (" + e.getMessage()
            + "; the host stopped while writing it, and nothing after it was acknowledged)");
        CrashPoint.reach("recovery.cutting-torn-tail");
        channel.truncate(offset);
        channel.force(true);
        CrashPoint.reach("recovery.cut-torn-tail");
        return count;
      }
      if (frame == null) {
        if (intactFrameAfter(bytes, offset)) {
          throw new LogCorruptException(file, offset, "a record length of 0 with intact records after it");
        }
        return count;
      }
      if (skipped(frame.item())) {
        skipped++;
      } else {
        sink.accept(frame.item());
      }
      count++;
      offset = frame.end();
    }
  }

  /** True iff some intact record starts after {@code offset} in {@code bytes}. */
  private boolean intactFrameAfter(MappedByteBuffer bytes, int offset) {
    for (int at = offset + 1; at + LogFormat.FRAME_PREFIX + LogFormat.FIXED <= bytes.limit(); at++) {
      final int length = bytes.getInt(at);
      if (length < LogFormat.FIXED || (long) at + LogFormat.FRAME_PREFIX + length > bytes.limit()) {
        continue;
      }
      if (bytes.getInt(at + 4) == LogFormat.checksum(bytes, at, at + LogFormat.FRAME_PREFIX + length, crc)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isZeros(MappedByteBuffer bytes, int from) {
    for (int at = from; at < bytes.limit(); at++) {
      if (bytes.get(at) != 0) {
        return false;
      }
    }
    return true;
  }
}
