package org.partita.server.database;

import java.util.Collection;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;

/**
 * What becomes of a multi-partition transaction that meets a failover
 * (docs/cluster.md, "Multi-partition work across hosts", "When a host
 * dies mid-transaction"), as pure rules, without sockets:
 *
 * <ul>
 *   <li>the coordinator's answer when a participant's leader moved: before
 *       any commit was sent the transaction is rolled back everywhere and
 *       provably did not run ({@code PARTITION_UNAVAILABLE}, "not run");
 *       once a commit was sent, or when its release could not be confirmed,
 *       it may have committed somewhere ({@code OUTCOME_UNKNOWN});</li>
 *   <li>the decision for a transaction whose coordinator is gone, from the
 *       states of its parts that survive ({@link #decide}).</li>
 * </ul>
 *
 * <p>Stateless.
 */
final class FailoverOutcome {
  /** A surviving part of a transaction whose coordinator is gone. */
  enum PartState {
    /** The part's leader was told to commit (and did, or will in its order). */
    COMMITTED,
    /** The part is on every copy of its partition, not committed: a commit may follow (the prepare step). */
    PREPARED,
    /** The part ran on its leader only; no commit reached it. */
    OPEN,
    /** The part was rolled back. */
    ROLLED_BACK
  }

  /** What a new coordinator does with a transaction in flight. */
  enum Decision {
    COMMIT, ABORT
  }

  private FailoverOutcome() {}

  /**
   * The answer to a transaction whose body failed with {@code failure}
   * before any commit was sent (it is then rolled back on every partition
   * that can): a leader that moved under it makes it "not run", which the
   * client may retry; any other failure answers as it always did.
   */
  static ClientResponse beforeCommit(Throwable failure) {
    if (Failures.unwrap(failure) instanceof LeaderMovedException moved) {
      return ErrorTable.response(ErrorCode.ERROR_CODE_PARTITION_UNAVAILABLE, "the multi-partition transaction was"
          + " rolled back on every partition before any of them committed it, so it did not run: "
          + moved.getMessage());
    }
    return Failures.response(failure);
  }

  /**
   * The answer once the partitions were released and {@code failure} (or
   * null) is the first release that could not be confirmed: a transaction
   * that committed may then be missing from the moved partition's new
   * leader ({@code OUTCOME_UNKNOWN}); one that was rolled back keeps its
   * answer (it ran nowhere).
   */
  static ClientResponse afterRelease(ClientResponse response, Throwable failure) {
    if (failure == null || !response.ok()) {
      return response;
    }
    return Failures.response(failure);
  }

  /**
   * The rule a new coordinator follows for a transaction whose coordinator
   * died, from the states of its surviving parts: committed anywhere means
   * commit everywhere (some copy already exposes it); prepared on every
   * partition may commit; anything else aborts everywhere. {@code parts}
   * holds one state per partition of the transaction; a partition with no
   * surviving part counts as not prepared.
   */
  static Decision decide(Collection<PartState> parts, int partitions) {
    if (parts.contains(PartState.COMMITTED)) {
      return Decision.COMMIT;
    }
    if (parts.size() == partitions && !parts.isEmpty()
        && parts.stream().allMatch(state -> state == PartState.PREPARED)) {
      return Decision.COMMIT;
    }
    return Decision.ABORT;
  }
}
