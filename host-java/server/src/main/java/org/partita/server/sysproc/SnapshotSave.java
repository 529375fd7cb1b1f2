package org.partita.server.sysproc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;

/**
 * {@code @SnapshotSave([path])}: takes a transaction-consistent snapshot of
 * every partition while transactions go on, and answers once it is durable
 * with its figures (one row, as {@code @SnapshotStatus}). Without a path it
 * goes to a new directory under {@code DATA_DIR/snapshots/}. Refused with
 * BAD_REQUEST while another snapshot is being taken or without a data
 * directory.
 */
final class SnapshotSave implements SystemProcedure {
  private final Snapshots snapshots;

  SnapshotSave(Snapshots snapshots) {
    this.snapshots = snapshots;
  }

  @Override
  public String name() {
    return "@SnapshotSave";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(0, 1, "([path])");
    final String path = parameters.count() == 1 ? parameters.text(0, "path") : null;
    answer(name(), snapshots.save(path), handler);
    return true;
  }

  /** Answers {@code procedure} with the figures {@code figures} completes with, or with why it failed. */
  static void answer(String procedure, CompletableFuture<SnapshotFigures> figures, ResponseHandler handler) {
    figures.whenComplete((done, error) -> {
      if (error == null) {
        handler.onResponse(Answers.table(done.toTable()));
        return;
      }
      final Throwable cause = error instanceof CompletionException && error.getCause() != null
          ? error.getCause() : error;
      handler.onResponse(cause instanceof ServerException s ? ErrorTable.response(s)
          : Answers.unexpected(procedure, cause));
    });
  }
}
