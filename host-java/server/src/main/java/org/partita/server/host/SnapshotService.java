package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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
import org.partita.server.database.SnapshotCut;
import org.partita.server.database.SnapshotSource;
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
    this.automatic = automaticTrigger(this::maybeSnapshot, snapshotLogBytes > 0);
  }

  /**
   * The thread of automatic snapshots: runs {@code check} every
   * {@link #AUTOMATIC_CHECK_MILLIS} when {@code enabled} (else nothing);
   * shut it down to stop.
   */
  static ScheduledExecutorService automaticTrigger(Runnable check, boolean enabled) {
    final ScheduledExecutorService automatic = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, "partita-snapshot-trigger");
      t.setDaemon(true);
      return t;
    });
    if (enabled) {
      automatic.scheduleWithFixedDelay(check, AUTOMATIC_CHECK_MILLIS, AUTOMATIC_CHECK_MILLIS, TimeUnit.MILLISECONDS);
    }
    return automatic;
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
    try {
      session = begin(target);
    } catch (ServerException e) {
      return CompletableFuture.failedFuture(e);
    }
    LOG.info("snapshot: cutting every partition; writing into " + target);
    database.beginSnapshot(session).whenComplete((cut, error) -> writeCut(session, cut, error));
    return session.writer.done().handle((manifest, error) -> finish(session, manifest, error));
  }

  /**
   * Restores the snapshot at {@code path} (docs/durability.md, "Restoring a
   * snapshot"): checks it, holds new transactions back, loads it into the
   * empty tables and snapshots the result into the data directory; once
   * that snapshot is durable, marks that recovery starts from it (the log
   * and snapshots before it lack the restored rows), removes the older
   * snapshots, and admits transactions again.
   */
  @Override
  public CompletableFuture<SnapshotFigures> restore(String path) {
    final SnapshotManifest source;
    final Session session;
    try {
      source = RestoreSource.check(path, database);
      session = begin(SnapshotStore.newSnapshot(SnapshotStore.directory(dataDir)));
    } catch (ServerException e) {
      return CompletableFuture.failedFuture(e);
    }
    final Path from = Path.of(path);
    final List<SnapshotStore.ChunkReader> readers = new ArrayList<>();
    final List<SnapshotSource> sources = new ArrayList<>();
    try {
      for (int p = 0; p < source.cuts().size(); p++) {
        final SnapshotStore.ChunkReader reader =
            new SnapshotStore.ChunkReader(from.resolve(SnapshotManifest.partitionFile(p)));
        readers.add(reader);
        sources.add(new FileSnapshotSource(reader));
      }
    } catch (IOException | SnapshotCorruptException e) {
      closeAll(readers);
      session.failed(-1, new IllegalStateException(e.getMessage(), e));
      return CompletableFuture.failedFuture(new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST,
          "@SnapshotRestore: cannot read " + from + ": " + e.getMessage() + "; nothing was restored"));
    }
    log.hold("a snapshot restore from " + from + " is running; retry once it is done");
    LOG.info("snapshot restore: loading " + from + " into the empty tables, then a snapshot into "
        + session.writer.directory());
    database.restoreSnapshot(sources, session).whenComplete((cut, error) -> {
      closeAll(readers);
      writeCut(session, cut, error);
    });
    return session.writer.done().handle((manifest, error) -> finishRestore(session, from, manifest, error));
  }

  /** Reserves the one snapshot slot and starts a writer into {@code target}. */
  private synchronized Session begin(Path target) throws ServerException {
    if (running != null) {
      throw new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, "a snapshot is already being taken into "
          + running.writer.directory());
    }
    final Session session;
    try {
      session = new Session(SnapshotWriter.start(target, database.partitionCount()), System.nanoTime());
    } catch (IOException e) {
      throw new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, "cannot create the snapshot directory " + target
          + ": " + e);
    }
    running = session;
    logBytesAtLastStart = log.figures().bytes();
    return session;
  }

  /** Hands the cut to the session's writer, or fails the snapshot when there is none. */
  private static void writeCut(Session session, SnapshotCut cut, Throwable error) {
    if (error != null) {
      final Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      session.refusal = cause instanceof ServerException s ? s : null;
      session.failed(-1, new IllegalStateException("the cut failed: " + cause.getMessage(), cause));
    } else {
      session.cut = describe(cut.lastRun());
      session.writer.cut(cut.lastRun(), cut.catalogVersion(), cut.engineCatalog(), cut.schemaChanges());
    }
  }

  /**
   * Ends a restore: on success makes it the state recovery starts from and
   * admits transactions again; refused before it loaded anything (a table
   * held rows), admits them again and says why; failed after it began
   * loading, keeps refusing them (the rows in memory are not durable) and
   * says to restart.
   */
  private SnapshotFigures finishRestore(Session session, Path from, SnapshotManifest manifest, Throwable written) {
    Throwable error = written;
    if (error == null) {
      try {
        LogTruncation.requireSnapshot(dataDir, session.writer.directory().getFileName().toString(),
            manifest.cuts());
        removeOlderThan(session.writer.directory());
      } catch (IOException e) {
        error = e;
      }
    }
    if (error == null || session.refusal != null) {
      log.resume();
    }
    final SnapshotFigures figures = settle(session, manifest, error);
    if (session.refusal != null) {
      throw new CompletionException(session.refusal);
    }
    if (error != null) {
      LOG.severe("snapshot restore from " + from + " failed after it began loading: " + figures.error()
          + "; new transactions stay refused until the server restarts (recovery returns to the state before it)");
      throw new CompletionException(new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "@SnapshotRestore from "
          + from + " failed after it began loading: " + figures.error() + ". Nothing of it is durable; new"
          + " transactions are refused until the server is restarted, which returns to the state before the restore"));
    }
    LOG.info("snapshot restore from " + from + " is durable as " + figures.path() + "; transactions admitted again");
    return figures;
  }

  /**
   * Removes the snapshots of the data directory older than {@code restored}:
   * none holds the restored rows, and recovery no longer loads them.
   */
  private void removeOlderThan(Path restored) {
    try {
      for (Path old : SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir))) {
        if (old.getFileName().toString().compareTo(restored.getFileName().toString()) < 0) {
          LOG.info("snapshot: removing " + old + " (taken before a snapshot restore)");
          SnapshotStore.remove(old);
        }
      }
    } catch (IOException e) {
      LOG.warning("snapshot: could not remove the snapshots taken before the restore: " + e.getMessage());
    }
  }

  private static void closeAll(List<SnapshotStore.ChunkReader> readers) {
    for (SnapshotStore.ChunkReader r : readers) {
      try {
        r.close();
      } catch (IOException ignored) {
        // Read-only.
      }
    }
  }

  @Override
  public synchronized SnapshotFigures status() {
    final Session s = running;
    if (s == null) {
      return last;
    }
    return s.figures("IN_PROGRESS", s.writer.writtenBytes(), (System.nanoTime() - s.startNanos) / 1_000_000, "",
        completed, database.snapshotKeptBytes());
  }

  private SnapshotFigures finish(Session session, SnapshotManifest manifest, Throwable error) {
    final SnapshotFigures figures = settle(session, manifest, error);
    final String path = figures.path();
    if (error != null) {
      LOG.warning("snapshot into " + path + " failed: " + figures.error());
      throw new CompletionException(new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "snapshot into " + path
          + " failed (nothing else was touched; its directory was removed): " + figures.error()));
    }
    LOG.info("snapshot " + path + " complete: " + figures.bytes() + " bytes in " + figures.durationMillis()
        + " ms, cut " + figures.cut() + ", longest pause of a partition for one chunk " + figures.longestChunkMicros()
        + " µs (most CPU time in one " + figures.longestChunkCpuMicros() + " µs)");
    if (removeOld(session.writer.directory()) && snapshotLogBytes > 0) {
      truncateLog();
    }
    return figures;
  }

  /** Frees the snapshot slot and records the figures of {@code session}'s end. */
  private SnapshotFigures settle(Session session, SnapshotManifest manifest, Throwable error) {
    final long millis = (System.nanoTime() - session.startNanos) / 1_000_000;
    final SnapshotFigures figures;
    synchronized (this) {
      running = null;
      if (error == null) {
        completed++;
      }
      final Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      figures = error == null
          ? session.figures("DONE", manifest.bytes(), millis, "", completed, 0)
          : session.figures("FAILED", session.writer.writtenBytes(), millis, String.valueOf(cause.getMessage()),
              completed, 0);
      last = figures;
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
    removeBeyondKept(snapshots);
    return true;
  }

  /** Removes the complete snapshots of {@code snapshots} beyond the {@link #KEEP} newest. */
  static void removeBeyondKept(Path snapshots) {
    try {
      final List<Path> complete = SnapshotStore.completeSnapshots(snapshots);
      for (Path old : complete.subList(Math.min(KEEP, complete.size()), complete.size())) {
        LOG.info("snapshot: removing " + old + " (" + KEEP + " newer ones are complete)");
        SnapshotStore.remove(old);
      }
    } catch (IOException e) {
      LOG.warning("snapshot: could not list " + snapshots + " to remove old snapshots: " + e.getMessage());
    }
  }

  /**
   * Deletes the log segments the oldest kept snapshot holds, so that recovery
   * can still fall back to it when the newest is damaged. Only a snapshot
   * whose catalog recovery can rebuild counts (one written before snapshots
   * kept their schema changes is not loaded at recovery).
   */
  private void truncateLog() {
    try {
      final List<Path> complete = SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir));
      if (complete.isEmpty()) {
        return;
      }
      final SnapshotManifest oldest = SnapshotManifest.read(complete.get(complete.size() - 1));
      if (oldest.rebuildsCatalog()) {
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

  /** One snapshot's sink: the partitions' chunks go to its writer (a cluster host's copies use it too). */
  static final class Session implements SnapshotSink {
    final SnapshotWriter writer;
    final long startNanos;
    volatile String cut = "";
    /** Set when the cut was refused before anything changed (a restore into tables holding rows). */
    volatile ServerException refusal;
    /** The longest time one site spent making one chunk (any partition), and the most CPU time one took. */
    final AtomicLong longestChunkNanos = new AtomicLong();
    final AtomicLong longestChunkCpuNanos = new AtomicLong();

    Session(SnapshotWriter writer, long startNanos) {
      this.writer = writer;
      this.startNanos = startNanos;
    }

    long longestChunkMicros() {
      return longestChunkNanos.get() / 1000;
    }

    long longestChunkCpuMicros() {
      return longestChunkCpuNanos.get() / 1000;
    }

    /** This snapshot's figures in {@code state}, with its longest chunk pauses so far. */
    SnapshotFigures figures(String state, long bytes, long millis, String error, long completed, long keptBytes) {
      return new SnapshotFigures(state, writer.directory().toString(), bytes, millis, cut, error, completed,
          longestChunkNanos.get() / 1000, longestChunkCpuNanos.get() / 1000, keptBytes);
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
    public void dedupTable(int partition, byte[] encoded) {
      writer.dedupTable(partition, encoded);
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
