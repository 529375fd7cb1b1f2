package org.partita.server.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.partita.server.database.CopySnapshots;
import org.partita.server.database.Database;
import org.partita.server.database.SnapshotSink;
import org.partita.server.durability.CommandLog;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.durability.SnapshotWriter;
import org.partita.server.sysproc.SnapshotFigures;
import org.partita.server.txn.TxnId;

/**
 * A cluster host's part of each snapshot taken across hosts
 * (docs/durability.md, "On a cluster"): the copies this host holds when the
 * first of them reaches the snapshot's cut mark stream into one
 * {@link SnapshotWriter} at {@code DATA_DIR/snapshots/NAME/}, whose manifest
 * names those copies and the mark each cut at; it is complete once every one
 * of them streamed its rows. After one completes, the parts
 * {@link ClusterLogTruncation#kept} leaves out are removed. Once the coordinator says every host's part of a snapshot is
 * durable ({@link #doneOnEveryHost}), the part is marked so and, when the
 * host truncates its log ({@code --snapshot-log-size} above 0), the log is
 * truncated ({@link ClusterLogTruncation}) on this object's own thread.
 *
 * <p>Thread-safe: {@link #begin} on the copies' site threads, the rest from
 * any thread; the state changes under this object's lock.
 */
final class ClusterCopySnapshots implements CopySnapshots {
  private static final Logger LOG = Logger.getLogger(ClusterCopySnapshots.class.getName());
  /** A snapshot's name: one directory name, no separators. */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private final Database database;
  private final Path dataDir;
  private final int hostId;
  private final CommandLog log;
  private final boolean truncates;
  private final ExecutorService marking = Executors.newSingleThreadExecutor(r -> {
    final Thread t = new Thread(r, "partita-snapshot-truncation");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, Session> sessions = new HashMap<>();
  /** The log's bytes written when this host's copies last began a snapshot. Guarded by the lock. */
  private long logBytesAtLastBegin;
  /** The snapshot begun last here, or null; and how many completed here since start. Guarded by the lock. */
  private String latest;
  private long completed;

  /** One snapshot's writer on this host, with the cuts its copies reported so far. */
  private static final class Session {
    final SnapshotWriter writer;
    final SnapshotService.Session sink;
    final List<Integer> copies;
    final TxnId[] cuts;
    final long startNanos = System.nanoTime();
    int begun;
    volatile long endNanos;

    Session(SnapshotWriter writer, List<Integer> copies, int partitions) {
      this.writer = writer;
      this.sink = new SnapshotService.Session(writer, System.nanoTime());
      this.copies = copies;
      this.cuts = new TxnId[partitions];
    }
  }

  /**
   * @param log the host's command log (null: none), whose bytes since the last snapshot trigger the next
   * @param truncates whether the log is truncated after a snapshot complete on every host
   */
  ClusterCopySnapshots(Database database, Path dataDir, int hostId, CommandLog log, boolean truncates) {
    this.database = database;
    this.dataDir = dataDir;
    this.hostId = hostId;
    this.log = log;
    this.truncates = truncates && log != null;
  }

  /** The log bytes this host wrote since its copies last began a snapshot (0 without a log). */
  synchronized long logBytesSinceLastBegin() {
    return log == null ? 0 : log.figures().bytes() - logBytesAtLastBegin;
  }

  /**
   * Marks this host's part of {@code name} complete on every host (durably),
   * then truncates the log when this host does; completes once marked.
   */
  @Override
  public CompletableFuture<?> doneOnEveryHost(String name) {
    final Path part = SnapshotStore.directory(dataDir).resolve(name);
    return done(name).thenRunAsync(() -> {
      try {
        ClusterLogTruncation.markEveryHost(part);
      } catch (IOException e) {
        throw new CompletionException(new IOException("cannot mark " + part + " complete on every host: "
            + e.getMessage(), e));
      }
      ClusterLogTruncation.removeBeyondKept(SnapshotStore.directory(dataDir));
      if (truncates) {
        ClusterLogTruncation.truncate(dataDir);
      }
    }, marking);
  }

  /** Stops the thread that marks parts and truncates the log. */
  void close() {
    marking.shutdownNow();
  }

  @Override
  public SnapshotSink begin(String name, int partition, TxnId cut) {
    final Session session;
    synchronized (this) {
      session = sessionFor(name);
      if (!session.copies.contains(partition)) {
        throw new IllegalStateException("snapshot " + name + " on host " + hostId + " holds the copies of "
            + session.copies + ", which partition " + partition + " joined after");
      }
      if (session.cuts[partition] != null) {
        throw new IllegalStateException("partition " + partition + " cut twice for snapshot " + name);
      }
      session.cuts[partition] = cut;
      session.begun++;
      if (session.begun == session.copies.size()) {
        session.writer.cut(java.util.Arrays.asList(session.cuts.clone()), database.catalogVersion(),
            database.catalog().engineCatalog().toByteArray(), List.of());
      }
    }
    return session.sink;
  }

  /**
   * Completes with the manifest once this host's part of snapshot
   * {@code name} is durable, or with why it failed; fails at once when no
   * copy of this host began it.
   */
  @Override
  public synchronized CompletableFuture<SnapshotManifest> done(String name) {
    final Session session = sessions.get(name);
    if (session == null) {
      return CompletableFuture.failedFuture(new IllegalStateException("host " + hostId
          + " holds no part of snapshot " + name));
    }
    return session.writer.done();
  }

  /** REQUIRES: the lock. */
  private Session sessionFor(String name) {
    final Session known = sessions.get(name);
    if (known != null) {
      return known;
    }
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("'" + name + "' is not a snapshot name (letters, digits, '.', '_', '-')");
    }
    final List<Integer> copies = database.heldPartitions();
    final Path target = SnapshotStore.directory(dataDir).resolve(name);
    final SnapshotWriter writer;
    try {
      writer = SnapshotWriter.start(target, database.partitionCount(), copies);
    } catch (IOException e) {
      throw new IllegalStateException("cannot create the snapshot directory " + target + ": " + e.getMessage(), e);
    }
    final Session session = new Session(writer, copies, database.partitionCount());
    sessions.put(name, session);
    latest = name;
    logBytesAtLastBegin = log == null ? 0 : log.figures().bytes();
    LOG.info("snapshot " + name + ": this host's copies of partitions " + copies + " stream into " + target);
    writer.done().whenComplete((manifest, error) -> {
      session.endNanos = System.nanoTime();
      finished(name, target, error);
    });
    return session;
  }

  /**
   * This host's part of the snapshot begun last here (for
   * {@code @SnapshotStatus}): IN_PROGRESS, DONE or FAILED with its
   * directory, bytes, time, and the cuts of this host's copies.
   */
  synchronized SnapshotFigures status() {
    final Session session = latest == null ? null : sessions.get(latest);
    if (session == null) {
      return SnapshotFigures.NONE;
    }
    final CompletableFuture<SnapshotManifest> done = session.writer.done();
    final long end = done.isDone() ? session.endNanos : System.nanoTime();
    final String state = !done.isDone() ? "IN_PROGRESS" : done.isCompletedExceptionally() ? "FAILED" : "DONE";
    final String error = state.equals("FAILED") ? String.valueOf(done.handle((m, e) -> e.getMessage()).join()) : "";
    final StringBuilder cut = new StringBuilder();
    for (int p : session.copies) {
      final TxnId id = session.cuts[p];
      cut.append(cut.length() == 0 ? "" : ",").append('p').append(p).append('=')
          .append(id == null ? "pending" : id.epoch() + ":" + id.sequence());
    }
    return new SnapshotFigures(state, session.writer.directory().toString(), session.writer.writtenBytes(),
        Math.max(0, end - session.startNanos) / 1_000_000, cut.toString(), error, completed,
        session.sink.longestChunkMicros(), session.sink.longestChunkCpuMicros(), 0);
  }

  private void finished(String name, Path target, Throwable error) {
    if (error == null) {
      synchronized (this) {
        completed++;
      }
    }
    if (error != null) {
      LOG.warning("snapshot " + name + " on host " + hostId + " failed: " + error.getMessage());
      return;
    }
    LOG.info("snapshot " + name + " complete on host " + hostId + ": " + target);
    try {
      marking.execute(() -> ClusterLogTruncation.removeBeyondKept(SnapshotStore.directory(dataDir)));
    } catch (java.util.concurrent.RejectedExecutionException stopping) {
      // The host is stopping: the next start's first snapshot removes them.
    }
  }
}
