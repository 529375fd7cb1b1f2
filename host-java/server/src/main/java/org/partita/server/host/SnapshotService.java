package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.proto.ErrorCode;
import org.partita.server.database.Database;
import org.partita.server.database.SnapshotSink;
import org.partita.server.durability.CommandLog;
import org.partita.server.durability.LogTruncation;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.durability.SnapshotWriter;
import org.partita.server.error.ServerException;
import org.partita.server.sysproc.SnapshotFigures;
import org.partita.server.sysproc.Snapshots;
import org.partita.server.txn.TxnId;

/**
 * The host's snapshots (docs/durability.md, "Snapshots"): one at a time,
 * each a {@link Database#beginSnapshot} cut streamed by the partitions into
 * a {@link SnapshotWriter}; keeps the figures of the latest for
 * {@code @SnapshotStatus}, and after each completed one into the data
 * directory removes all but the {@link #KEEP} newest there, then deletes the
 * command log segments the oldest kept one holds ({@link LogTruncation}).
 * Takes one by itself whenever {@code --snapshot-log-size} of log was
 * written since the last one began; with that size 0 it takes none by
 * itself and deletes no log segment (the whole log is kept).
 *
 * <p>Thread-safe: {@link #save} from any thread; the state changes under
 * this object's lock.
 */
final class SnapshotService implements Snapshots, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(SnapshotService.class.getName());
  /** Complete snapshots kept in the data directory: the newest, and one to fall back on. */
  static final int KEEP = 2;

  /** How often the log written since the last snapshot is looked at. */
  private static final long AUTOMATIC_CHECK_MILLIS = 250;

  private final Database database;
  private final Path dataDir;
  private final CommandLog log;
  private final long snapshotLogBytes;
  private final ScheduledExecutorService automatic;
  private long logBytesAtLastStart;
  private Session running;
  private SnapshotFigures last = SnapshotFigures.NONE;
  private long completed;

  /**
   * @param log the command log, whose bytes written start automatic snapshots
   * @param snapshotLogBytes log bytes since the last snapshot that start one (0: never)
   */
  SnapshotService(Database database, Path dataDir, CommandLog log, long snapshotLogBytes) {
    this.database = database;
    this.dataDir = dataDir;
    this.log = log;
    this.snapshotLogBytes = snapshotLogBytes;
    this.automatic = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, "partita-snapshot-trigger");
      t.setDaemon(true);
      return t;
    });
    if (snapshotLogBytes > 0) {
      automatic.scheduleWithFixedDelay(this::maybeSnapshot, AUTOMATIC_CHECK_MILLIS, AUTOMATIC_CHECK_MILLIS,
          TimeUnit.MILLISECONDS);
    }
  }

  /** Starts a snapshot when the log written since the last one began passes the size. */
  private void maybeSnapshot() {
    synchronized (this) {
      if (running != null || log.figures().bytes() - logBytesAtLastStart < snapshotLogBytes) {
        return;
      }
    }
    LOG.info("snapshot: " + (snapshotLogBytes >> 20) + " MB of command log since the last one; taking one");
    save(null).exceptionally(e -> null);  // the failure is logged and in @SnapshotStatus
  }

  /** Stops taking automatic snapshots. */
  @Override
  public void close() {
    automatic.shutdownNow();
  }

  @Override
  public CompletableFuture<SnapshotFigures> save(String path) {
    final Path target = path == null ? SnapshotStore.newSnapshot(SnapshotStore.directory(dataDir)) : Path.of(path);
    final Session session;
    synchronized (this) {
      if (running != null) {
        return CompletableFuture.failedFuture(new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST,
            "a snapshot is already being taken into " + running.writer.directory()));
      }
      try {
        session = new Session(SnapshotWriter.start(target, database.partitionCount()), System.nanoTime());
      } catch (IOException e) {
        return CompletableFuture.failedFuture(new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST,
            "cannot create the snapshot directory " + target + ": " + e));
      }
      running = session;
      logBytesAtLastStart = log.figures().bytes();
    }
    LOG.info("snapshot: cutting every partition; writing into " + target);
    database.beginSnapshot(session).whenComplete((cut, error) -> {
      if (error != null) {
        session.failed(-1, new IllegalStateException("the cut failed: " + error.getMessage(), error));
      } else {
        session.cut = describe(cut.lastRun());
        session.writer.cut(cut.lastRun(), cut.catalogVersion(), cut.engineCatalog());
      }
    });
    return session.writer.done().handle((manifest, error) -> finish(session, manifest, error));
  }

  @Override
  public synchronized SnapshotFigures status() {
    final Session s = running;
    if (s == null) {
      return last;
    }
    return new SnapshotFigures("IN_PROGRESS", s.writer.directory().toString(), s.writer.writtenBytes(),
        (System.nanoTime() - s.startNanos) / 1_000_000, s.cut, "", completed, s.longestChunkNanos.get() / 1000,
        s.longestChunkCpuNanos.get() / 1000);
  }

  private SnapshotFigures finish(Session session, SnapshotManifest manifest, Throwable error) {
    final long millis = (System.nanoTime() - session.startNanos) / 1_000_000;
    final String path = session.writer.directory().toString();
    final SnapshotFigures figures;
    synchronized (this) {
      running = null;
      if (error == null) {
        completed++;
      }
      final Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      figures = error == null
          ? new SnapshotFigures("DONE", path, manifest.bytes(), millis, session.cut, "", completed,
              session.longestChunkNanos.get() / 1000, session.longestChunkCpuNanos.get() / 1000)
          : new SnapshotFigures("FAILED", path, session.writer.writtenBytes(), millis, session.cut,
              String.valueOf(cause.getMessage()), completed, session.longestChunkNanos.get() / 1000,
              session.longestChunkCpuNanos.get() / 1000);
      last = figures;
    }
    if (error != null) {
      LOG.warning("snapshot into " + path + " failed: " + figures.error());
      throw new CompletionException(new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "snapshot into " + path
          + " failed (nothing else was touched; its directory was removed): " + figures.error()));
    }
    LOG.info("snapshot " + path + " complete: " + figures.bytes() + " bytes in " + millis + " ms, cut " + figures.cut()
        + ", longest pause of a partition for one chunk " + figures.longestChunkMicros() + " µs (most CPU time in one "
        + figures.longestChunkCpuMicros() + " µs)");
    if (removeOld(session.writer.directory()) && snapshotLogBytes > 0) {
      truncateLog();
    }
    return figures;
  }

  /**
   * After {@code done} completed, removes the older snapshots of the data
   * directory beyond the {@link #KEEP} newest. Returns whether {@code done}
   * is in the data directory.
   */
  private boolean removeOld(Path done) {
    final Path snapshots = SnapshotStore.directory(dataDir);
    if (!snapshots.equals(done.getParent())) {
      return false;
    }
    try {
      final List<Path> complete = SnapshotStore.completeSnapshots(snapshots);
      for (Path old : complete.subList(Math.min(KEEP, complete.size()), complete.size())) {
        LOG.info("snapshot: removing " + old + " (" + KEEP + " newer ones are complete)");
        SnapshotStore.remove(old);
      }
    } catch (IOException e) {
      LOG.warning("snapshot: could not list " + snapshots + " to remove old snapshots: " + e.getMessage());
    }
    return true;
  }

  /**
   * Deletes the log segments the oldest kept snapshot holds, so that recovery
   * can still fall back to it when the newest is damaged. Only a snapshot
   * taken with the starting schema counts (recovery loads no other).
   */
  private void truncateLog() {
    try {
      final List<Path> complete = SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir));
      if (complete.isEmpty()) {
        return;
      }
      final SnapshotManifest oldest = SnapshotManifest.read(complete.get(complete.size() - 1));
      if (oldest.catalogVersion() == 1) {
        LogTruncation.truncate(dataDir, oldest.cuts());
      }
    } catch (IOException | SnapshotCorruptException e) {
      LOG.warning("snapshot: the command log was not truncated: " + e.getMessage());
    }
  }

  /** "p0=2:17,p1=none". */
  static String describe(List<TxnId> cuts) {
    final StringBuilder out = new StringBuilder();
    for (int p = 0; p < cuts.size(); p++) {
      final TxnId id = cuts.get(p);
      out.append(p == 0 ? "" : ",").append('p').append(p).append('=')
          .append(id == null ? "none" : id.epoch() + ":" + id.sequence());
    }
    return out.toString();
  }

  /** One snapshot's sink: the partitions' chunks go to its writer. */
  private static final class Session implements SnapshotSink {
    final SnapshotWriter writer;
    final long startNanos;
    volatile String cut = "";
    /** The longest time one site spent making one chunk (any partition), and the most CPU time one took. */
    final AtomicLong longestChunkNanos = new AtomicLong();
    final AtomicLong longestChunkCpuNanos = new AtomicLong();

    Session(SnapshotWriter writer, long startNanos) {
      this.writer = writer;
      this.startNanos = startNanos;
    }

    @Override
    public boolean cancelled() {
      return writer.cancelled();
    }

    @Override
    public boolean ready(int partition) {
      return writer.ready();
    }

    @Override
    public void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos) {
      longestChunkNanos.accumulateAndGet(madeNanos, Math::max);
      longestChunkCpuNanos.accumulateAndGet(madeCpuNanos, Math::max);
      writer.chunk(partition, chunk);
    }

    @Override
    public void finished(int partition) {
      writer.finished(partition);
    }

    @Override
    public void failed(int partition, RuntimeException error) {
      writer.failed(partition, error);
    }
  }
}
