package org.partita.server.host;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
 * <p>Thread-safe: one save at a time, guarded by this object's lock.
 */
final class ClusterSnapshots implements Snapshots {
  private static final Logger LOG = Logger.getLogger(ClusterSnapshots.class.getName());
  /** How long a save waits for a host's part once every partition was cut. */
  static final long COMPLETION_TIMEOUT_MILLIS = 10 * 60 * 1000;

  private final Database database;
  private final Path dataDir;
  private final ClusterCopySnapshots copies;
  private String running;

  /** Also makes {@code database} run {@code @SnapshotSave} that other hosts forward to it. */
  ClusterSnapshots(Database database, Path dataDir, ClusterCopySnapshots copies) {
    this.database = database;
    this.dataDir = dataDir;
    this.copies = copies;
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
