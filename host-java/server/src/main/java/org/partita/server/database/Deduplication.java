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
 * How a single-partition call of a client session meets its copy's
 * {@link DedupTable} (docs/cluster.md, "Client de-duplication"): before it
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
 * <p>Calls without a session (connection ids, in-process callers) pass
 * untouched. Stateless; called on the site's thread.
 */
final class Deduplication {
  private Deduplication() {
  }

  /**
   * Answers {@code invocation} from the table when its session sent it
   * before, and returns true; false when it must run. REQUIRES: on the
   * site thread, {@code header} the item's.
   */
  static boolean answered(Site site, TxnHeader header, SequencedItem item, Invocation invocation,
      Consumer<ClientResponse> done) {
    final long client = invocation.clientId();
    if (!ClientSessions.isSession(client)) {
      return false;
    }
    final long sequence = invocation.clientSequence();
    final DedupTable table = site.dedup();
    final ClientResponse answer;
    switch (table.seen(client, sequence)) {
      case NEW:
        return false;
      case RECORDED:
        final ClientResponse recorded = table.outcome(client, sequence);
        answer = recorded != null ? recorded : ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "call "
            + sequence + " of this client session (" + invocation.procedure() + ") ran before, but partition "
            + site.partition() + "'s copy here holds its record without its answer (its table came to this copy"
            + " at a rejoin without answers); it was not run again");
        break;
      default:
        answer = ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "call " + sequence + " of this client"
            + " session (" + invocation.procedure() + ") was sent again after its record left partition "
            + site.partition() + "'s de-duplication table (it keeps the last " + table.capacity() + " writes of"
            + " client sessions); it may have run before and was not run again");
        break;
    }
    site.initiator().pipeline().release(header, item, 0, answer, done);
    return true;
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
