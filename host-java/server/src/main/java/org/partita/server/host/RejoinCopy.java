package org.partita.server.host;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.logging.Logger;
import org.partita.proto.cluster.RejoinStart;
import org.partita.server.database.Database;
import org.partita.server.replication.RejoinSession;
import org.partita.server.replication.Replication;
import org.partita.server.txn.TxnHeader;

/**
 * A joining host's copy of one partition as its {@link RejoinSession} loads
 * it (docs/cluster.md, "Rejoin"): each attempt opens a new empty replica copy
 * in the database (stopping the previous one) and loads the chunks the
 * leader streams into it, and opens the replica in the stream's epoch that
 * takes over once the metadata adds this host.
 *
 * <p>Thread model: the session calls it on the internal port's event loop;
 * opening a copy (which may wait for the previous copy's site to stop) runs
 * on {@code opener}, the host's rejoin thread.
 */
final class RejoinCopy implements RejoinSession.Copy {
  private static final Logger LOG = Logger.getLogger(RejoinCopy.class.getName());

  private final int partition;
  private final Database database;
  private final Replication replication;
  private final ExecutorService opener;
  private RejoinSession session;
  // Event loop only.
  private RejoinChunks chunks;

  RejoinCopy(int partition, Database database, Replication replication, ExecutorService opener) {
    this.partition = partition;
    this.database = database;
    this.replication = replication;
    this.opener = opener;
  }

  /** The session this copy belongs to; set once, before its first start. */
  void of(RejoinSession owner) {
    session = owner;
  }

  @Override
  public void beginLoad(RejoinStart start, RejoinSession.Loaded loaded) {
    if (chunks != null) {
      chunks.close();
    }
    final RejoinChunks next = new RejoinChunks(partition);
    chunks = next;
    replication.openSession(session, start.getEpoch(), start.getLeaderHostId());
    final TxnHeader cut = start.hasCut() ? TxnHeader.fromProto(start.getCut()) : null;
    final CompletableFuture<Long> done = new CompletableFuture<>();
    done.whenComplete((count, error) -> {
      if (error == null) {
        LOG.info("rejoin: partition " + partition + ": snapshot loaded (" + count + " chunks)");
        loaded.done();
      } else {
        loaded.failed(error.getMessage());
      }
    });
    opener.execute(() -> {
      try {
        database.openRejoinCopy(partition, start.getEpoch(), next, cut, start.getDedupTable().toByteArray(),
            loaded::chunkLoaded, done);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        done.completeExceptionally(e);
      } catch (RuntimeException e) {
        done.completeExceptionally(e);
      }
    });
  }

  @Override
  public void chunk(byte[] chunk) {
    chunks.add(chunk);
  }

  @Override
  public void endLoad() {
    chunks.end();
  }
}
