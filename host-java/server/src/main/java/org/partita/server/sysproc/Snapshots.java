package org.partita.server.sysproc;

import java.util.concurrent.CompletableFuture;

/**
 * The host's snapshots as the system procedures use them
 * (docs/durability.md, "Snapshots"); the host implements it.
 *
 * <p>Thread-safe.
 */
public interface Snapshots {
  /**
   * Starts a snapshot into {@code path} (null: a new directory under the
   * data directory's {@code snapshots/}); completes with its figures once it
   * is durable, or exceptionally with a {@link
   * org.partita.server.error.ServerException} saying why it was refused or failed.
   */
  CompletableFuture<SnapshotFigures> save(String path);

  /** The latest snapshot's state. */
  SnapshotFigures status();

  /**
   * Restores the snapshot at {@code path} into the running database's
   * empty tables and makes it durable (docs/durability.md, "Restoring a
   * snapshot"); completes with the figures of the snapshot that holds the
   * result, or exceptionally with a {@link
   * org.partita.server.error.ServerException} saying why nothing was
   * restored.
   */
  CompletableFuture<SnapshotFigures> restore(String path);

  /** A host without snapshots (no data directory): saving is refused. */
  Snapshots NONE = new Snapshots() {
    @Override
    public CompletableFuture<SnapshotFigures> save(String path) {
      return CompletableFuture.failedFuture(new org.partita.server.error.ServerException(
          org.partita.proto.ErrorCode.ERROR_CODE_BAD_REQUEST,
          "this server has no snapshots: it was started without a command log (--data-dir)"));
    }

    @Override
    public SnapshotFigures status() {
      return SnapshotFigures.NONE;
    }

    @Override
    public CompletableFuture<SnapshotFigures> restore(String path) {
      return CompletableFuture.failedFuture(new org.partita.server.error.ServerException(
          org.partita.proto.ErrorCode.ERROR_CODE_BAD_REQUEST, "this server cannot restore " + path + ": it was"
          + " started without a command log (--data-dir), and a restore is made durable by a snapshot in the data"
          + " directory"));
    }
  };
}
