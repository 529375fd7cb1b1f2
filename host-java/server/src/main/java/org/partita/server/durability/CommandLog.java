package org.partita.server.durability;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * The host's command log (docs/durability.md): the commit pipeline that
 * writes every sequenced work item to preallocated segment files before
 * its answer may be seen (sync mode) or within an interval (async mode).
 *
 * <p>Thread model: site threads call {@link #sequenced} and {@link #release};
 * both only add to one lock-free queue (a record to write; in sync mode an
 * answer to release), never touching the disk. One writer thread drains
 * the queue: it serializes every record it took into one buffer, writes it
 * with one write and makes it durable with one {@code fdatasync}, then runs
 * the answers it took. A site adds a record before that record's answer, so
 * an answer the writer takes comes after every record of its partition
 * sequenced before it: all of them are in this batch or an earlier one,
 * durable once the batch is. Batches form without a timer: whatever
 * arrives while one batch is being synced makes the next. A background
 * thread preallocates the next segment while the current one fills.
 *
 * <p>A failed write or sync goes to {@link DiskFailure} (the host halts);
 * nothing is retried and the answers waiting for it are never run.
 */
public final class CommandLog implements CommitPipeline, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(CommandLog.class.getName());
  /** A batch stops taking records past this many bytes (the next batch takes the rest). */
  private static final int BATCH_BYTES = 4 << 20;
  private static final int IDLE_SPINS = 100;
  private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final long THROTTLE_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
  /** How often a full disk is tried again. */
  private static final long FULL_DISK_RETRY_MILLIS = 500;

  /** A record waiting for the writer. */
  private record Pending(TxnHeader header, SequencedItem item) {}

  private final Path directory;
  private final CommandLogOptions options;
  private final boolean sync;
  private final long epoch;
  private final int partitions;
  private final int schemaFingerprint;
  private final DiskFailure failure;
  private final MpscUnboundedArrayQueue<Object> queue = new MpscUnboundedArrayQueue<>(4096);
  private final Thread writer;
  private final ExecutorService preallocator =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "partita-log-preallocate"));
  private final long intervalNanos;
  private final long maxLagNanos;
  private volatile boolean parked;
  private volatile boolean closing;
  private volatile boolean failed;
  /** Why new transactions are refused (the next segment cannot be preallocated: the disk is full), or null. */
  private volatile String refusal;
  /** Async mode: when the writer last finished a sync (or found nothing to write). */
  private volatile long syncedAtNanos = System.nanoTime();
  private volatile long records;
  private volatile long bytes;
  private volatile long syncs;
  private volatile long largestBatch;
  private volatile long longestSyncNanos;
  /** Each batch's write and fdatasync in µs: recorded by the writer (wait-free), drained by {@link #figures}. */
  private final Recorder syncMicros = new Recorder(2);
  /** Every sync since the log opened; guarded by itself (readers only). */
  private final Histogram syncsSinceOpen = new Histogram(2);
  private Histogram recycledSyncs;
  /** Async mode: time site threads spent waiting for the disk to catch up. */
  private final java.util.concurrent.atomic.AtomicLong throttledNanos = new java.util.concurrent.atomic.AtomicLong();
  // Writer-confined.
  private ByteBuffer batch = ByteBuffer.allocateDirect(1 << 20);
  private final CRC32C crc = new CRC32C();
  private final ArrayList<Runnable> releases = new ArrayList<>();
  private int batchRecords;
  private LogSegment current;
  private CompletableFuture<LogSegment> next;

  private CommandLog(Path dataDir, CommandLogOptions options, long epoch, int partitions, int schemaFingerprint,
      long firstSegment, DiskFailure failure) {
    this.directory = SegmentFiles.directory(dataDir);
    this.options = options;
    this.sync = options.mode() == CommandLogMode.SYNC;
    this.epoch = epoch;
    this.partitions = partitions;
    this.schemaFingerprint = schemaFingerprint;
    this.failure = failure;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(options.intervalMillis());
    this.maxLagNanos = TimeUnit.MILLISECONDS.toNanos(options.maxLagMillis());
    this.writer = new Thread(this::run, "partita-log-writer");
  }

  /**
   * Opens a log that writes new segments from number {@code firstSegment}
   * in {@code dataDir}/commandlog, preallocates the first one and starts
   * the writer. REQUIRES: mode sync or async; {@code firstSegment} after
   * every segment present (recovery says which).
   *
   * @param epoch the epoch of this run (every segment it writes says so)
   * @param schemaFingerprint the starting schema's fingerprint (recovery checks it)
   */
  public static CommandLog open(Path dataDir, CommandLogOptions options, long epoch, int partitions,
      int schemaFingerprint, long firstSegment, DiskFailure failure) throws IOException {
    if (options.mode() == CommandLogMode.OFF) {
      throw new IllegalArgumentException("a command log in mode off is no log");
    }
    final CommandLog log = new CommandLog(dataDir, options, epoch, partitions, schemaFingerprint, firstSegment,
        failure);
    Files.createDirectories(log.directory);
    try {
      // At once, not in the background: a disk already full stops the start with its error.
      final Path file = log.preparing(firstSegment);
      log.next = CompletableFuture.completedFuture(new LogSegment(file, firstSegment, options.segmentBytes(),
          SegmentFiles.preallocate(file, options.segmentBytes())));
    } catch (IOException | RuntimeException e) {
      log.preallocator.shutdownNow();
      throw e;
    }
    log.writer.start();
    return log;
  }

  public CommandLogOptions options() {
    return options;
  }

  @Override
  public void sequenced(TxnHeader header, SequencedItem item) {
    if (!sync) {
      throttle();
    }
    queue.offer(new Pending(header, item));
  }

  @Override
  public String refusal() {
    return refusal;
  }

  @Override
  public void aborted(TxnHeader header) {
    queue.offer(new Pending(header, AbortMarker.INSTANCE));
  }

  @Override
  public void release(TxnHeader header, SequencedItem item, Runnable answer) {
    if (!sync) {
      answer.run();
      return;
    }
    queue.offer(answer);
    wake();
  }

  /** Async mode: new writes wait while the disk is more than the allowed lag behind. */
  private void throttle() {
    final long bound = intervalNanos + maxLagNanos;
    if (System.nanoTime() - syncedAtNanos <= bound) {
      return;
    }
    final long begin = System.nanoTime();
    while (System.nanoTime() - syncedAtNanos > bound && !failed && !closing) {
      LockSupport.parkNanos(THROTTLE_PARK_NANOS);
    }
    throttledNanos.addAndGet(System.nanoTime() - begin);
  }

  /** Unparks the writer if it may be parked (see Site#wake for the fence). */
  private void wake() {
    VarHandle.fullFence();
    if (parked) {
      LockSupport.unpark(writer);
    }
  }

  /**
   * Figures since the log opened (any thread).
   *
   * @param largestBatch the most records one sync made durable
   * @param longestSyncNanos the longest fdatasync
   * @param throttledNanos async mode: time writes waited for the disk to catch up (summed over partitions)
   * @param syncP50Micros median time of one batch's write and fdatasync
   * @param syncP99Micros its 99th percentile
   * @param syncP999Micros its 99.9th percentile
   */
  public record Figures(long records, long bytes, long syncs, long largestBatch, long longestSyncNanos,
                        long throttledNanos, long syncP50Micros, long syncP99Micros, long syncP999Micros) {}

  public Figures figures() {
    synchronized (syncsSinceOpen) {
      recycledSyncs = syncMicros.getIntervalHistogram(recycledSyncs);
      syncsSinceOpen.add(recycledSyncs);
      return new Figures(records, bytes, syncs, largestBatch, longestSyncNanos, throttledNanos.get(),
          syncsSinceOpen.getValueAtPercentile(50), syncsSinceOpen.getValueAtPercentile(99),
          syncsSinceOpen.getValueAtPercentile(99.9));
    }
  }

  private void run() {
    try {
      while (true) {
        final boolean last = closing;
        if (sync) {
          awaitWork();
          writeBatch();
        } else {
          awaitInterval();
          while (writeBatch()) {
            // Async: everything pending goes out before the interval's sync is counted.
          }
          syncedAtNanos = System.nanoTime();
        }
        if (last && queue.isEmpty()) {
          return;
        }
      }
    } catch (IOException e) {
      failed = true;
      failure.stop("command log: cannot write or sync " + (current == null ? directory : current.path()), e);
    } catch (RuntimeException | Error e) {
      failed = true;
      failure.stop("command log: the writer failed", e);
    }
  }

  /** Sync mode: spins briefly, then parks until something is queued or the log closes. */
  private void awaitWork() {
    for (int spins = 0; queue.isEmpty() && !closing; spins++) {
      if (spins < IDLE_SPINS) {
        Thread.onSpinWait();
        continue;
      }
      parked = true;
      if (queue.isEmpty() && !closing) {
        LockSupport.parkNanos(this, MAX_PARK_NANOS);
      }
      parked = false;
    }
  }

  private void awaitInterval() {
    final long until = System.nanoTime() + intervalNanos;
    for (long left = intervalNanos; left > 0 && !closing; left = until - System.nanoTime()) {
      parked = true;
      LockSupport.parkNanos(this, left);
      parked = false;
    }
  }

  /**
   * Takes what is queued (up to a batch's bytes), writes and syncs its
   * records, then runs its answers. Returns true iff it took anything.
   */
  private boolean writeBatch() throws IOException {
    Object entry = queue.relaxedPoll();
    if (entry == null) {
      return false;
    }
    do {
      if (entry instanceof Pending p) {
        append(p);
      } else {
        releases.add((Runnable) entry);
      }
    } while (batch.position() < BATCH_BYTES && (entry = queue.relaxedPoll()) != null);
    if (batchRecords > 0) {
      final long writeStart = System.nanoTime();
      flush();
      final long syncStart = System.nanoTime();
      current.channel().force(false);
      final long syncEnd = System.nanoTime();
      longestSyncNanos = Math.max(longestSyncNanos, syncEnd - syncStart);
      syncMicros.recordValue((syncEnd - writeStart) / 1000);
      syncs++;
      largestBatch = Math.max(largestBatch, batchRecords);
      batchRecords = 0;
    }
    for (int i = 0; i < releases.size(); i++) {
      try {
        releases.get(i).run();
      } catch (RuntimeException e) {
        LOG.log(java.util.logging.Level.SEVERE, "command log: an answer failed to leave", e);
      }
    }
    releases.clear();
    return true;
  }

  /** Appends {@code p}'s record to the batch (a single-partition call straight from its bytes). */
  private void append(Pending p) throws IOException {
    final Invocation call = p.item().singlePartitionInvocation();
    if (call != null) {
      reserve(LogFormat.frameBytes(call.protoSize()));
      LogFormat.writeFrame(batch, p.header(), call, crc);
    } else {
      final WorkItem item = p.item().toProto(p.header());
      final byte[] body = LogFormat.body(item).toByteArray();
      reserve(LogFormat.frameBytes(body.length));
      LogFormat.writeFrame(batch, p.header(), LogFormat.kind(item), body, crc);
    }
    batchRecords++;
    records++;
  }

  /** Makes room for a record of {@code size} bytes: in the current segment (else the next), and in the batch. */
  private void reserve(int size) throws IOException {
    if (current == null || current.position() + batch.position() + size > current.capacity()) {
      nextSegment(size);
    }
    if (batch.remaining() < size) {
      grow(size);
    }
  }

  private void grow(int size) {
    final ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(batch.capacity() * 2, batch.position() + size));
    batch.flip();
    bigger.put(batch);
    batch = bigger;
  }

  /** Writes the batch so far at the current segment's end (no sync). */
  private void flush() throws IOException {
    batch.flip();
    long at = current.position();
    while (batch.hasRemaining()) {
      at += current.channel().write(batch, at);
    }
    bytes += at - current.position();
    current.advanceTo(at);
    batch.clear();
  }

  /**
   * Ends the current segment (its records written and synced) and starts
   * the next: the preallocated file is renamed into the log, the directory
   * synced, and its header starts the batch.
   */
  private void nextSegment(int recordBytes) throws IOException {
    if (current != null) {
      if (batch.position() > 0) {
        flush();
        current.channel().force(false);
        syncs++;
      }
      current.channel().close();
    }
    final long needed = LogFormat.SEGMENT_HEADER_BYTES + (long) recordBytes;
    LogSegment prepared = await(next);
    if (prepared.capacity() < needed) {
      prepared.discard();
      prepared = await(prepare(prepared.number(), needed));
    }
    final Path path = directory.resolve(SegmentFiles.name(prepared.number()));
    Files.move(prepared.path(), path, StandardCopyOption.ATOMIC_MOVE);
    SegmentFiles.syncDirectory(directory);
    CrashPoint.reach("log.segment-renamed");
    current = prepared.renamed(path);
    next = prepare(prepared.number() + 1, options.segmentBytes());
    LogFormat.writeSegmentHeader(batch, new LogFormat.SegmentHeader(current.number(), epoch, partitions,
        schemaFingerprint, System.currentTimeMillis()), crc);
    LOG.fine("command log: writing " + path);
  }

  /**
   * The preallocated segment; while the disk is full, waits until space is
   * freed (the transactions already admitted wait with it, unanswered).
   * Gives up only when the log closes.
   */
  private LogSegment await(CompletableFuture<LogSegment> segment) throws IOException {
    try {
      while (true) {
        try {
          return segment.get(FULL_DISK_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          if (closing) {
            throw new IOException("the log is closing while its disk is full: " + refusal);
          }
        }
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for a segment to be preallocated", e);
    }
  }

  /** Preallocates segment {@code number} in the background as a .new file. */
  private CompletableFuture<LogSegment> prepare(long number, long capacity) {
    final Path file = preparing(number);
    final CompletableFuture<LogSegment> out = new CompletableFuture<>();
    preallocator.execute(() -> preallocate(file, number, capacity, out));
    return out;
  }

  /** The file segment {@code number} is preallocated as before it is renamed into the log. */
  private Path preparing(long number) {
    return directory.resolve(SegmentFiles.name(number) + SegmentFiles.PREPARING_SUFFIX);
  }

  /**
   * On the preallocating thread: makes {@code file} and completes {@code out}
   * with it. A full disk is not a failure: it refuses new transactions
   * ({@link #refusal}) and tries again every {@link #FULL_DISK_RETRY_MILLIS}
   * until space is freed (then admits them again) or the log closes. The
   * segment being written keeps the room it was preallocated with, so what
   * was admitted before the refusal still fits (unless one record is larger
   * than a segment's rest, which then waits for the space).
   */
  private void preallocate(Path file, long number, long capacity, CompletableFuture<LogSegment> out) {
    try {
      out.complete(new LogSegment(file, number, capacity, SegmentFiles.preallocate(file, capacity)));
      if (refusal != null) {
        refusal = null;
        LOG.warning("command log: " + file + " preallocated: the disk has room again; transactions are admitted");
      }
    } catch (IOException e) {
      if (!SegmentFiles.isDiskFull(e) || closing) {
        out.completeExceptionally(e);
        return;
      }
      if (refusal == null) {
        LOG.warning("command log: the disk is full (preallocating " + file + ": " + e.getMessage() + "); new"
            + " transactions are refused until space is freed");
      }
      refusal = "the command log's disk is full (cannot preallocate " + file + "); no new transaction runs until"
          + " space is freed there";
      CompletableFuture.delayedExecutor(FULL_DISK_RETRY_MILLIS, TimeUnit.MILLISECONDS, this::retryPreallocation)
          .execute(() -> preallocate(file, number, capacity, out));
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    }
  }

  private void retryPreallocation(Runnable attempt) {
    try {
      preallocator.execute(attempt);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // The log closed while the disk was full; the writer gives up on its own (see await).
    }
  }

  /**
   * Writes and syncs everything queued, runs the answers waiting for it,
   * stops the writer and removes the preallocated next segment. REQUIRES:
   * nothing sequences any more (the database is closed).
   */
  @Override
  public void close() throws InterruptedException {
    closing = true;
    LockSupport.unpark(writer);
    writer.join();
    preallocator.shutdown();
    preallocator.awaitTermination(1, TimeUnit.MINUTES);
    try {
      if (current != null) {
        current.channel().close();
      }
      if (next != null && next.isDone() && !next.isCompletedExceptionally()) {
        next.join().discard();
      }
    } catch (IOException | RuntimeException e) {
      LOG.warning("command log: closing: " + e);
    }
    LOG.info("command log closed: " + records + " record(s), " + bytes + " bytes, " + syncs + " sync(s), largest"
        + " batch " + largestBatch + " record(s), longest sync " + longestSyncNanos / 1000 + " µs"
        + (sync ? "" : ", writes waited " + throttledNanos.get() / 1_000_000 + " ms for the disk"));
  }
}
