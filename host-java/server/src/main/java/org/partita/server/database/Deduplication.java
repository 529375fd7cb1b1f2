package org.partita.server.database;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;
import org.partita.server.txn.ClientSessions;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * How a call of a client session meets its copy's {@link DedupTable}
 * (docs/cluster.md, "Client de-duplication"). A single-partition call: before it
 * runs, a call the table holds is answered with its recorded answer and a
 * call whose record left the table is refused, neither run; after it ran, a
 * call that wrote is recorded. The same on a leader, a replica and a
 * replayed log, so every copy's table stays the same.
 *
 * <p>An answer from the table takes its place in the partition's order like
 * a read, through the partition's commit pipeline with no write hash: it
 * leaves only once everything before it, the recorded call included, has
 * committed, so a call sent again to the leader that still holds the first
 * answer cannot learn of a write that may yet be lost.
 *
 * <p>A multi-partition call is looked up on partition
 * {@link #MULTI_PARTITION_RECORDS}'s site when it joins there, and recorded
 * by every copy of that partition when its part there commits
 * ({@link #multiPartitionCommitted}); the coordinator answers a call the
 * table knows from it, rolling back its empty parts.
 *
 * <p>Calls without a session (connection ids, in-process callers) pass
 * untouched. Stateless; called on the site's thread.
 */
final class Deduplication {
  /**
   * The partition whose copies record the multi-partition calls of client
   * sessions: the cluster's coordinator leads it, so it looks a call up on
   * its own site when the call joins it, and a new coordinator after a
   * failover holds the same records (docs/cluster.md, "Client
   * de-duplication").
   */
  static final int MULTI_PARTITION_RECORDS = 0;

  private Deduplication() {
  }

  /**
   * Answers {@code invocation} from the table when its session sent it
   * before, and returns true; false when it must run. REQUIRES: on the
   * site thread, {@code header} the item's.
   */
  static boolean answered(Site site, TxnHeader header, SequencedItem item, Invocation invocation,
      Consumer<ClientResponse> done) {
    final ClientResponse answer = earlierAnswer(site, invocation);
    if (answer == null) {
      return false;
    }
    site.initiator().pipeline().release(header, item, 0, answer, done);
    return true;
  }

  /**
   * What {@code invocation} gets instead of running when its session sent
   * it before and this copy's table knows it: the recorded answer, or
   * OUTCOME_UNKNOWN (the record holds no answer, or it left the table);
   * null when it is new here (or not a session's): run it. REQUIRES: on the
   * site thread.
   */
  static ClientResponse earlierAnswer(Site site, Invocation invocation) {
    final long client = invocation.clientId();
    if (!ClientSessions.isSession(client)) {
      return null;
    }
    final long sequence = invocation.clientSequence();
    final DedupTable table = site.dedup();
    switch (table.seen(client, sequence)) {
      case NEW:
        return null;
      case RECORDED:
        final ClientResponse recorded = table.outcome(client, sequence);
        return recorded != null ? recorded : ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "call "
            + sequence + " of this client session (" + invocation.procedure() + ") ran before, but partition "
            + site.partition() + "'s copy here holds its record without its answer (its table came to this copy"
            + " at a rejoin without answers, or a coordinator committed it after a failover); it was not run"
            + " again");
      default:
        return ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "call " + sequence + " of this client"
            + " session (" + invocation.procedure() + ") was sent again after its record left partition "
            + site.partition() + "'s de-duplication table (it keeps the last " + table.capacity() + " writes of"
            + " client sessions); it may have run before and was not run again");
    }
  }

  /**
   * Records that a multi-partition call of {@code client}'s session with
   * {@code sequence} committed, answered {@code answer} (null when this
   * copy does not know the answer: a coordinator decided it after a
   * failover), at the timestamp of its part's header. Called by every copy
   * of {@link #MULTI_PARTITION_RECORDS} as it commits the part, in the
   * partition's order, so their tables stay alike; a call the table holds
   * already (it cannot be: the coordinator looked it up at the join) is
   * left as it is. REQUIRES: on the site thread.
   */
  static void multiPartitionCommitted(Site site, long client, long sequence, ClientResponse answer,
      long timestampMicros) {
    if (ClientSessions.isSession(client) && site.dedup().seen(client, sequence) == DedupTable.Seen.NEW) {
      site.dedup().record(client, sequence, answer, timestampMicros);
    }
  }

  /**
   * Records {@code invocation}'s answer when its session is one and it
   * wrote ({@code writeHash != 0} and it succeeded: what its replicas run
   * too). REQUIRES: on the site thread, right after it ran.
   */
  static void ran(Site site, TxnHeader header, Invocation invocation, ClientResponse response, long writeHash) {
    final long client = invocation.clientId();
    if (ClientSessions.isSession(client) && response.ok() && writeHash != 0) {
      site.dedup().record(client, invocation.clientSequence(), response, header.timestampMicros());
    }
  }
}
