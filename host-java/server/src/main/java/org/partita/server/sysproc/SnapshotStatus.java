package org.partita.server.sysproc;

import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @SnapshotStatus()} and {@code @Statistics SNAPSHOT}: one row, the
 * latest snapshot's state (NONE, IN_PROGRESS, DONE, FAILED), directory,
 * bytes, duration, throughput, cut, error and the number completed since
 * the host started ({@link SnapshotFigures}).
 */
final class SnapshotStatus implements SystemProcedure, StatisticsSelector {
  private final Snapshots snapshots;

  SnapshotStatus(Snapshots snapshots) {
    this.snapshots = snapshots;
  }

  @Override
  public String name() {
    return "@SnapshotStatus";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(0, 0, "()");
    handler.onResponse(Answers.table(snapshots.status().toTable()));
    return true;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    handler.onResponse(Answers.table(snapshots.status().toTable()));
    return true;
  }
}
