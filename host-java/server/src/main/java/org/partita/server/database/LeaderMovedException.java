package org.partita.server.database;

import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;

/**
 * A message to another host that will never be answered because the map
 * this host follows gives the partition it was for to another leader
 * (docs/cluster.md, "Multi-partition work across hosts"): its outcome is
 * unknown ({@code OUTCOME_UNKNOWN}). {@link LeaderFollowingTransport}
 * raises it; {@link FailoverOutcome} tells it from other failures.
 * Immutable.
 */
final class LeaderMovedException extends ServerException {
  private static final long serialVersionUID = 1L;

  private final int partition;

  LeaderMovedException(int partition, String message) {
    super(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, message);
    this.partition = partition;
  }

  /** The partition whose leader moved. */
  int partition() {
    return partition;
  }
}
