package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * The command log's writer and its recovery on real files: what sync mode
 * releases is written first, records come back in order across segments,
 * and a torn tail, a flipped byte, a missing segment or another host's log
 * are told apart.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class CommandLogTest {
  private static final int PARTITIONS = 2;
  private static final int FINGERPRINT = 0x1234;
  private static final long SMALL_SEGMENT = CommandLogOptions.MIN_SEGMENT_BYTES;

  @TempDir
  Path dir;

  /** A logged call whose bytes name its number. */
  private record Call(long n) implements SequencedItem {
    @Override
    public WorkItem toProto(TxnHeader header) {
      return LogFormatTest.call(header, "call " + n + " " + "x".repeat((int) (n % 200)));
    }
  }

  private static TxnHeader header(int partition, long sequence) {
    return new TxnHeader(new TxnId(partition, 1, sequence), 1000 + sequence, sequence * 31, 1);
  }

  private CommandLog open(CommandLogMode mode, long firstSegment) throws IOException {
    return CommandLog.open(dir, new CommandLogOptions(mode, 5, 1000, SMALL_SEGMENT), 1, PARTITIONS, FINGERPRINT,
        firstSegment, (message, cause) -> {
          throw new AssertionError(message, cause);
        });
  }

  /** Logs {@code count} calls on alternating partitions (sync), waiting for every answer; the answers' order. */
  private List<Long> logCalls(int count) throws Exception {
    final List<Long> answered = new CopyOnWriteArrayList<>();
    final CountDownLatch all = new CountDownLatch(count);
    try (CommandLog log = open(CommandLogMode.SYNC, 1)) {
      for (int i = 1; i <= count; i++) {
        final TxnHeader h = header(i % PARTITIONS, (i + 1) / PARTITIONS + 1);
        final Call call = new Call(i);
        log.sequenced(h, call);
        final long n = i;
        log.release(h, call, () -> {
          answered.add(n);
          all.countDown();
        });
      }
      assertTrue(all.await(60, TimeUnit.SECONDS));
      assertEquals(count, log.figures().records());
      assertTrue(log.figures().syncs() >= 1);
    }
    return answered;
  }

  private List<WorkItem> recover() throws Exception {
    final List<WorkItem> out = new ArrayList<>();
    CommandLogRecovery.read(dir, PARTITIONS, FINGERPRINT, out::add);
    return out;
  }

  private Path segment(long n) {
    return SegmentFiles.directory(dir).resolve(SegmentFiles.name(n));
  }

  @Test
  void syncModeAnswersInOrderAndEveryRecordComesBackInOrderAcrossSegments() throws Exception {
    final List<Long> answered = logCalls(3000);
    assertEquals(3000, answered.size());
    for (int i = 1; i < answered.size(); i++) {
      assertTrue(answered.get(i - 1) < answered.get(i), "answers leave in order");
    }
    assertTrue(Files.exists(segment(3)), "3000 records fill several 64 KiB segments");
    assertEquals(List.of(), SegmentFiles.leftovers(SegmentFiles.directory(dir)), "close removes the preallocated one");
    final List<WorkItem> back = recover();
    assertEquals(3000, back.size());
    for (int i = 1; i <= 3000; i++) {
      assertEquals(new Call(i).toProto(header(i % PARTITIONS, (i + 1) / PARTITIONS + 1)), back.get(i - 1));
    }
  }

  /** A partition's join of the multi-partition transaction {@code coordinator}. */
  private record Join(TxnHeader coordinator) implements SequencedItem {
    @Override
    public WorkItem toProto(TxnHeader header) {
      return WorkItem.newBuilder().setHeader(header.toProto()).setMultiPartition(
          org.partita.proto.txn.MultiPartitionJoin.newBuilder().setCoordinator(coordinator.toProto())).build();
    }
  }

  @Test
  void transactionsRecordedAsAbortedAreNotHandedToRecovery() throws Exception {
    final TxnHeader abortedMp = new TxnHeader(new TxnId(TxnId.MULTI_PARTITION, 1, 1), 5, 6, 1);
    final TxnHeader keptMp = new TxnHeader(new TxnId(TxnId.MULTI_PARTITION, 1, 2), 7, 8, 1);
    final List<WorkItem> kept = new ArrayList<>();
    final CountDownLatch written = new CountDownLatch(1);
    try (CommandLog log = open(CommandLogMode.SYNC, 1)) {
      kept.add(logged(log, header(0, 1), new Call(1)));
      logged(log, header(1, 1), new Call(2));
      log.aborted(header(1, 1));
      kept.add(logged(log, header(1, 2), new Call(3)));
      logged(log, header(0, 2), new Join(abortedMp));
      logged(log, header(1, 3), new Join(abortedMp));
      log.aborted(abortedMp);
      kept.add(logged(log, header(0, 3), new Join(keptMp)));
      kept.add(logged(log, header(1, 4), new Join(keptMp)));
      log.release(header(1, 4), new Join(keptMp), written::countDown);
      assertTrue(written.await(60, TimeUnit.SECONDS));
      assertEquals(9, log.figures().records(), "the two markers are records too");
    }
    assertEquals(kept, recover());
  }

  private static WorkItem logged(CommandLog log, TxnHeader header, SequencedItem item) {
    log.sequenced(header, item);
    return item.toProto(header);
  }

  @Test
  void aSyncAnswerLeavesOnlyOnceItsRecordIsInTheFile() throws Exception {
    final List<String> problems = new CopyOnWriteArrayList<>();
    final CountDownLatch answered = new CountDownLatch(1);
    try (CommandLog log = open(CommandLogMode.SYNC, 1)) {
      final TxnHeader h = header(0, 1);
      log.sequenced(h, new Call(4242));
      log.release(h, new Call(4242), () -> {
        try {
          final String text = Files.readString(segment(1), java.nio.charset.StandardCharsets.ISO_8859_1);
          if (!text.contains("call 4242")) {
            problems.add("answered before its record was written");
          }
        } catch (IOException e) {
          problems.add(e.toString());
        }
        answered.countDown();
      });
      assertTrue(answered.await(30, TimeUnit.SECONDS));
    }
    assertEquals(List.of(), problems);
  }

  @Test
  void asyncModeAnswersAtOnceAndWritesWithinTheInterval() throws Exception {
    try (CommandLog log = open(CommandLogMode.ASYNC, 1)) {
      final boolean[] ran = new boolean[1];
      log.sequenced(header(1, 1), new Call(1));
      log.release(header(1, 1), new Call(1), () -> ran[0] = true);
      assertTrue(ran[0], "async answers on the calling thread at once");
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (log.figures().syncs() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(1);
      }
      assertEquals(1, log.figures().records());
    }
    assertEquals(1, recover().size());
  }

  @Test
  void aTornLastRecordIsCutAndTheLogContinuesInANewSegment() throws Exception {
    logCalls(10);
    final long end = endOfRecords(segment(1));
    final long lastStart = startOfLastRecord(segment(1));
    zero(segment(1), lastStart + 12, end);
    assertEquals(9, recover().size());
    assertEquals(lastStart, Files.size(segment(1)), "the torn record is cut off the file");
    try (CommandLog log = open(CommandLogMode.SYNC, 2)) {
      final CountDownLatch done = new CountDownLatch(1);
      log.sequenced(header(0, 50), new Call(50));
      log.release(header(0, 50), new Call(50), done::countDown);
      assertTrue(done.await(30, TimeUnit.SECONDS));
    }
    final List<WorkItem> back = recover();
    assertEquals(10, back.size());
    assertEquals(50, back.get(9).getHeader().getSequence());
  }

  @Test
  void aFlippedByteInTheMiddleRefusesNamingFileAndOffset() throws Exception {
    logCalls(10);
    final long third = startOfRecord(segment(1), 2);
    flip(segment(1), third + 30);
    final LogCorruptException e = assertThrows(LogCorruptException.class, this::recover);
    assertEquals(segment(1), e.file());
    assertEquals(third, e.offset());
    assertTrue(e.getMessage().contains("at offset " + third) && e.getMessage().contains("CRC32C"), e.getMessage());
  }

  @Test
  void damageInASegmentBeforeTheLastRefusesEvenAtItsEnd() throws Exception {
    logCalls(3000);
    final long lastStart = startOfLastRecord(segment(1));
    flip(segment(1), lastStart + 20);
    final LogCorruptException e = assertThrows(LogCorruptException.class, this::recover);
    assertEquals(lastStart, e.offset());
    assertTrue(e.getMessage().contains("not the last"), e.getMessage());
  }

  @Test
  void aMissingSegmentRefusesNamingIt() throws Exception {
    logCalls(3000);
    Files.delete(segment(2));
    final LogCorruptException e = assertThrows(LogCorruptException.class, this::recover);
    assertEquals(segment(2), e.file());
    assertTrue(e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void aLogOfAnotherPartitionCountOrSchemaRefuses() throws Exception {
    logCalls(3);
    final LogCorruptException sites = assertThrows(LogCorruptException.class,
        () -> CommandLogRecovery.read(dir, 4, FINGERPRINT, item -> { }));
    assertTrue(sites.getMessage().contains("--sites 2"), sites.getMessage());
    final LogCorruptException schema = assertThrows(LogCorruptException.class,
        () -> CommandLogRecovery.read(dir, PARTITIONS, FINGERPRINT + 1, item -> { }));
    assertTrue(schema.getMessage().contains("--schema"), schema.getMessage());
  }

  @Test
  void anEmptyDirectoryHasNoLogAndLeftoversAreRemoved() throws Exception {
    assertFalse(CommandLogRecovery.exists(dir));
    assertEquals(new CommandLogRecovery.Result(0, 0, 0, 1),
        CommandLogRecovery.read(dir, PARTITIONS, FINGERPRINT, item -> { }));
    logCalls(2);
    Files.write(SegmentFiles.directory(dir).resolve(SegmentFiles.name(2) + SegmentFiles.PREPARING_SUFFIX),
        new byte[100]);
    Files.write(segment(2), new byte[(int) SMALL_SEGMENT]);
    final CommandLogRecovery.Result result = CommandLogRecovery.read(dir, PARTITIONS, FINGERPRINT, item -> { });
    assertEquals(2, result.records());
    assertEquals(2, result.nextSegment(), "an all-zero last segment was never written: it is removed");
    assertFalse(Files.exists(segment(2)));
    assertEquals(List.of(), SegmentFiles.leftovers(SegmentFiles.directory(dir)));
    assertEquals(1, CommandLogRecovery.lastEpoch(dir));
  }

  // --- helpers reading the segment's frames ---

  private static ByteBuffer read(Path file) throws IOException {
    return ByteBuffer.wrap(Files.readAllBytes(file));
  }

  private static long startOfRecord(Path file, int index) throws IOException {
    final ByteBuffer b = read(file);
    int at = LogFormat.SEGMENT_HEADER_BYTES;
    for (int i = 0; i < index; i++) {
      at += LogFormat.FRAME_PREFIX + b.getInt(at);
    }
    return at;
  }

  private static long startOfLastRecord(Path file) throws IOException {
    final ByteBuffer b = read(file);
    int at = LogFormat.SEGMENT_HEADER_BYTES;
    int last = at;
    while (at + 4 <= b.limit() && b.getInt(at) != 0) {
      last = at;
      at += LogFormat.FRAME_PREFIX + b.getInt(at);
    }
    return last;
  }

  private static long endOfRecords(Path file) throws IOException {
    final long last = startOfLastRecord(file);
    return last + LogFormat.FRAME_PREFIX + read(file).getInt((int) last);
  }

  private static void zero(Path file, long from, long to) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.allocate((int) (to - from)), from);
    }
  }

  private static void flip(Path file, long at) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      final ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, at);
      one.put(0, (byte) (one.get(0) ^ 0x01)).position(0);
      ch.write(one, at);
    }
  }
}
