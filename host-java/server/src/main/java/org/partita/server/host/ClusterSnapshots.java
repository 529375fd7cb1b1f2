package org.partita.server.host;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.database.Database;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.sysproc.SnapshotFigures;
import org.partita.server.sysproc.Snapshots;

/**
 * {@code @SnapshotSave} and {@code @SnapshotStatus} on a cluster host
 * (docs/durability.md, "On a cluster"). On the host that runs the
 * multi-partition coordinator, a save cuts every partition through
 * {@link Database#cutSnapshotAcrossHosts} (every copy at its partition's
 * mark), then waits until every host holding a copy has its part durable
 * ({@link Database#snapshotCompleteOnHosts}) and answers with this host's
 * figures and every partition's cut, or fails naming the host. Another host
 * forwards the call to the coordinator's host and answers with its answer
 * (the coordinator's figures). The status is this host's part
 * of the latest snapshot its copies began ({@link ClusterCopySnapshots}).
 * Restores are refused on a cluster.
 *
 * <p>Once every host's part is durable, the coordinator's host tells each
 * host so ({@link Database#snapshotCompleteOnHosts(String, long, boolean)}),
 * which marks its part and truncates its log ({@link ClusterLogTruncation});
 * the call answers after that round (a host that misses it keeps its log).
 *
 * <p>Automatic snapshots: each host asks for one (through
 * {@link #save}, forwarded to the coordinator's host as any call) once its
 * own log grew by {@code --snapshot-log-size} since its copies last began
 * one, whoever asked for that one; so every host's log is bounded, and a
 * host whose log grows slower rides on the others' snapshots. A request while
 * one runs is refused; the host asks again {@link #RETRY_MILLIS} later.
 *
 * <p>Thread-safe: one save at a time, guarded by this object's lock.
 */
final class ClusterSnapshots implements Snapshots, AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterSnapshots.class.getName());
  /** How long a save waits for a host's part once every partition was cut. */
  static final long COMPLETION_TIMEOUT_MILLIS = 10 * 60 * 1000;

  private final Database database;
  private final Path dataDir;
  /** How long a host waits before asking again when its request for an automatic snapshot failed. */
  static final long RETRY_MILLIS = 2000;

  private final ClusterCopySnapshots copies;
  private final long snapshotLogBytes;
  private final ScheduledExecutorService automatic;
  private String running;
  /** The automatic trigger's request in flight, or null. Guarded by the lock. */
  private CompletableFuture<?> requested;
  /** Not before this time (System.nanoTime) does the trigger ask again. Guarded by the lock. */
  private long quietUntilNanos = System.nanoTime();

  /**
   * Also makes {@code database} run {@code @SnapshotSave} that other hosts
   * forward to it; asks for a snapshot whenever {@code snapshotLogBytes} of
   * this host's log were written since its copies last began one (0: never).
   */
  ClusterSnapshots(Database database, Path dataDir, ClusterCopySnapshots copies, long snapshotLogBytes) {
    this.database = database;
    this.dataDir = dataDir;
    this.copies = copies;
    this.snapshotLogBytes = snapshotLogBytes;
    this.automatic = SnapshotService.automaticTrigger(this::maybeSnapshot, snapshotLogBytes > 0);
    database.forwardedSnapshotSave(() -> save(null).handle((figures, error) -> {
      if (error == null) {
        return ClientResponse.success(List.of(figures.toTable()));
      }
      final Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      return cause instanceof ServerException s ? ErrorTable.response(s)
          : ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL, String.valueOf(cause.getMessage()));
    }));
  }

  /** Asks for a snapshot when this host's log grew by the size since its copies last began one. */
  private void maybeSnapshot() {
    synchronized (this) {
      if (requested != null || System.nanoTime() - quietUntilNanos < 0
          || copies.logBytesSinceLastBegin() < snapshotLogBytes) {
        return;
      }
      LOG.info("snapshot: " + (snapshotLogBytes >> 20) + " MB of this host's command log since its copies last"
          + " began a snapshot; asking for one across the hosts");
      requested = save(null);
    }
    requested.whenComplete((figures, error) -> {
      synchronized (this) {
        requested = null;
        if (error != null) {
          quietUntilNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
        }
      }
      if (error != null) {
        LOG.info("snapshot: the automatic snapshot was not taken (asking again in " + RETRY_MILLIS + " ms): "
            + error.getMessage());
      }
    });
  }

  /** Stops asking for automatic snapshots, and stops marking parts and truncating the log. */
  @Override
  public void close() {
    automatic.shutdownNow();
    copies.close();
  }

  @Override
  public CompletableFuture<SnapshotFigures> save(String path) {
    if (path != null) {
      return refused("@SnapshotSave on a cluster takes no path: each host writes its part into its own data"
          + " directory's snapshots/");
    }
    if (!database.runsCoordinator()) {
      return forward();
    }
    final String name;
    synchronized (this) {
      if (running != null) {
        return refused("a snapshot is already being taken across the hosts: " + running);
      }
      name = SnapshotStore.newSnapshot(SnapshotStore.directory(dataDir)).getFileName().toString();
      running = name;
    }
    LOG.info("snapshot " + name + ": cutting every partition on every host");
    final long start = System.nanoTime();
    return database.cutSnapshotAcrossHosts(name)
        .thenCompose(cuts -> database.snapshotCompleteOnHosts(name, COMPLETION_TIMEOUT_MILLIS)
            .thenApply(done -> cuts))
        .thenCompose(cuts -> markOnEveryHost(name).thenApply(marked -> cuts))
        .handle((cuts, error) -> {
          synchronized (this) {
            running = null;
          }
          if (error != null) {
            final Throwable cause = error instanceof CompletionException && error.getCause() != null
                ? error.getCause() : error;
            LOG.warning("snapshot " + name + " across the hosts failed: " + cause.getMessage());
            throw new CompletionException(new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "snapshot " + name
                + " across the hosts failed: " + cause.getMessage()));
          }
          final SnapshotFigures here = copies.status();
          final String cut = SnapshotService.describe(cuts);
          LOG.info("snapshot " + name + " complete on every host holding a copy in "
              + (System.nanoTime() - start) / 1_000_000 + " ms, cut " + cut);
          return new SnapshotFigures("DONE", here.path(), here.bytes(), (System.nanoTime() - start) / 1_000_000, cut,
              "", here.completed(), here.longestChunkMicros(), here.longestChunkCpuMicros(), 0);
        });
  }

  /**
   * Tells every host that every host's part of {@code name} is durable (each
   * marks its part, then may truncate its log); a host that misses it only
   * keeps more log, so its failure is logged and the snapshot still
   * succeeds.
   */
  private CompletableFuture<Void> markOnEveryHost(String name) {
    return database.snapshotCompleteOnHosts(name, COMPLETION_TIMEOUT_MILLIS, true).exceptionally(error -> {
      LOG.warning("snapshot " + name + " is complete on every host, but not every host marked it so (its log is"
          + " not truncated up to it): " + error.getMessage());
      return null;
    });
  }

  /** Sends the call to the coordinator's host; its answer is this call's. */
  private CompletableFuture<SnapshotFigures> forward() {
    final CompletableFuture<ClientResponse> answer;
    try {
      answer = database.forwardSnapshotSave();
    } catch (IllegalStateException e) {
      return refused("@SnapshotSave cannot reach the coordinator's host: " + e.getMessage());
    }
    return answer.thenApply(response -> {
      if (!response.ok()) {
        throw new CompletionException(new ServerException(response.errorCode(), response.message()));
      }
      return SnapshotFigures.fromTable(response.results().get(0));
    });
  }

  @Override
  public SnapshotFigures status() {
    return copies.status();
  }

  @Override
  public CompletableFuture<SnapshotFigures> restore(String path) {
    return refused("@SnapshotRestore does not run on a cluster of several hosts yet; nothing was restored");
  }

  private static CompletableFuture<SnapshotFigures> refused(String why) {
    return CompletableFuture.failedFuture(new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, why));
  }
}
