package org.partita.server.sysproc;

import org.partita.proto.ErrorCode;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.error.ErrorTable;

/**
 * {@code @SnapshotRestore(path)}: refused on a running server, with the way
 * to restore. A snapshot is restored at start, where recovery loads it and
 * then replays the command log after its cut; loading rows into a server
 * that already runs transactions would need the load itself to be logged,
 * which it is not (docs/durability.md, "Restoring a snapshot").
 */
final class SnapshotRestore implements SystemProcedure {
  @Override
  public String name() {
    return "@SnapshotRestore";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(path)");
    final String path = parameters.text(0, "path");
    handler.onResponse(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "@SnapshotRestore is refused on a"
        + " running server: stop it, place " + path + " under DATA_DIR/snapshots/ of an empty data directory (or"
        + " one whose log it continues), and run partita start --data-dir DATA_DIR: recovery loads the newest"
        + " complete snapshot, then replays the log after its cut"));
    return true;
  }
}
