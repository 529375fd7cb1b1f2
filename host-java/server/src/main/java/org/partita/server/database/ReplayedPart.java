package org.partita.server.database;

import com.google.protobuf.ByteString;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.proto.txn.MultiPartitionRun;
import org.partita.server.engine.EngineException;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.txn.TxnHeader;

/**
 * A cluster copy's logged part of a multi-partition transaction (its
 * engine batches, docs/durability.md, "On a cluster") that recovery runs
 * again on that copy alone, under the partition's header it was logged
 * with: the batches in order, then a commit, as a replica runs a part its
 * leader sent ({@link ReplicaRun}). The site adopts the header as it does
 * for a {@link Replayed} item. A failure is reported to {@code failures}
 * (recovery then refuses to start); {@code done} completes once it ran.
 * A part of a schema change takes its catalog on the copy, and on the host
 * ({@link Database#adoptCatalog}).
 */
record ReplayedPart(MultiPartitionRun part, TxnHeader header, Consumer<RuntimeException> failures,
    CompletableFuture<Void> done, Database database) implements WorkItem {
  @Override
  public void run(Site site, TxnHeader ignored) {
    Replayed.adopt(site, header, failures);
    final PartitionEngine engine = site.engine();
    site.replaying(true);
    try {
      if (part.getJoin().hasSchemaChange()) {
        // A schema change this copy committed: it takes the catalog again (its host with it), at this point.
        final org.partita.proto.txn.SchemaChange change = part.getJoin().getSchemaChange();
        final CatalogSnapshot next = database.catalogs().next(change);
        site.takeCatalog(next, change.getEngineCatalog().toByteArray());
        database.adoptCatalog(next);
      }
      for (ByteString batch : part.getBatchesList()) {
        engine.request().load(batch.toByteArray());
        try {
          engine.execute();
        } catch (EngineException e) {
          // As on its leader: a batch that failed rolled the engine's transaction back; the next ones go on.
        }
      }
      if (engine.inTransaction()) {
        engine.commit();
      }
    } catch (RuntimeException e) {
      if (engine.inTransaction()) {
        engine.rollback();
      }
      failures.accept(new IllegalStateException("cannot replay " + header.id() + " (a part of a multi-partition"
          + " transaction) on partition " + site.partition() + ": " + e.getMessage(), e));
    } finally {
      site.replaying(false);
      done.complete(null);
    }
  }

  @Override
  public void refuse(ClientResponse response) {
    done.complete(null);
  }
}
