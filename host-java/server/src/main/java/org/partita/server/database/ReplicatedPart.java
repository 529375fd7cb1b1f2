package org.partita.server.database;

import com.google.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import org.partita.proto.txn.MultiPartitionRun;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A partition's part in a multi-partition transaction as its leader ran it,
 * for its replicas (docs/cluster.md, "Multi-partition transactions"): the
 * engine batches in order, each without its time limit. A replica runs
 * them under the partition's header and commits ({@link ReplicaRun}), or,
 * for a {@code prepared} part, holds them open until the decision item
 * that follows ({@link PartDecision}); its write hash must be the
 * leader's. Immutable.
 */
record ReplicatedPart(MultiPartitionTxn txn, List<byte[]> batches, boolean prepared) implements SequencedItem {
  ReplicatedPart {
    batches = List.copyOf(batches);
  }

  @Override
  public WorkItem toProto(TxnHeader header) {
    final MultiPartitionRun.Builder run = MultiPartitionRun.newBuilder().setJoin(txn.toProto()).setPrepared(prepared);
    for (byte[] batch : batches) {
      run.addBatches(ByteString.copyFrom(batch));
    }
    return WorkItem.newBuilder().setHeader(header.toProto()).setMultiPartitionRun(run).build();
  }

  @Override
  public boolean multiPartitionPart() {
    return true;
  }

  /**
   * What one partition ran of a multi-partition transaction, recorded as it
   * runs, and the write hash its replicas must reach. The rule is the one
   * {@link ReplicaRun} follows, so both sides agree: a batch that ran gives
   * the hash of the engine's open transaction; one that failed rolled it
   * back (hash 0); a part that did not commit has hash 0 (a marker).
   *
   * <p>Confined to the partition's site thread.
   */
  static final class Recorder {
    private final List<byte[]> batches = new ArrayList<>();
    private long hash;
    private long committedHash;
    private boolean finished;

    void ran(byte[] batch, long writeHash) {
      batches.add(batch);
      hash = writeHash;
    }

    void failed(byte[] batch) {
      batches.add(batch);
      hash = 0;
    }

    /** The part took a new catalog (a schema change): its hash is the catalog's ({@link CatalogVersions#writeHash}). */
    void tookCatalog(long catalogHash) {
      hash = catalogHash;
    }

    /**
     * The coordinator commits ({@code commit}: with an open engine transaction) or rolls back. Only the
     * first counts: a roll back sent after a commit (a coordinator whose commit failed elsewhere) finds the
     * part committed.
     */
    void finished(boolean commit) {
      if (!finished) {
        finished = true;
        committedHash = commit ? hash : 0;
      }
    }

    /** The write hash of the part as it ended: 0 when it changed nothing (a marker for the replicas). */
    long committedHash() {
      return committedHash;
    }

    /** The write hash of the part as run so far (the engine's open transaction). */
    long hash() {
      return hash;
    }

    ReplicatedPart part(MultiPartitionTxn txn) {
      return new ReplicatedPart(txn, batches, false);
    }

    /** The part as run so far, for the prepare step. */
    ReplicatedPart prepared(MultiPartitionTxn txn) {
      return new ReplicatedPart(txn, batches, true);
    }
  }
}
