package org.partita.server.sysproc;

import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @SnapshotRestore(path)}: loads the snapshot at {@code path} into
 * the running server's tables, which must all be empty, and answers once
 * the result is durable (a snapshot of it is complete in the data
 * directory) with that snapshot's figures (one row, as
 * {@code @SnapshotStatus}). New transactions are refused with SERVER_BUSY
 * while it runs. Refused with BAD_REQUEST, changing nothing, for a missing
 * or damaged snapshot, another partition count, other tables, a table
 * holding rows, or without a data directory (docs/durability.md,
 * "Restoring a snapshot").
 */
final class SnapshotRestore implements SystemProcedure {
  private final Snapshots snapshots;

  SnapshotRestore(Snapshots snapshots) {
    this.snapshots = snapshots;
  }

  @Override
  public String name() {
    return "@SnapshotRestore";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(path)");
    final String path = parameters.text(0, "path");
    SnapshotSave.answer(name(), snapshots.restore(path), handler);
    return true;
  }
}
