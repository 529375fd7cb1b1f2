package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.proto.txn.MultiPartitionJoin;
import org.partita.proto.txn.MultiPartitionRun;
import org.partita.proto.txn.WorkItem;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A cluster host's replica copy with a command log
 * (docs/durability.md, "On a cluster"): every item its leader sent is
 * handed to the copy's pipeline (the host's log) once it ran, as the record
 * its leader logged (a part of a multi-partition transaction as the engine
 * batches it ran), and the copy acknowledges it only once that pipeline
 * releases it, which a sync log does once the record is on disk.
 */
class ReplicaLogTest {
  private static final String DDL = """
      CREATE TABLE kv (k BIGINT NOT NULL PRIMARY KEY, v VARCHAR(10));
      PARTITION TABLE kv ON COLUMN k;
      CREATE PROCEDURE Put PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS UPSERT INTO kv (k, v) VALUES (?, ?);
      """;

  private Database replica;

  @AfterEach
  void close() throws Exception {
    if (replica != null) {
      replica.close();
    }
  }

  /** Two hosts, K = 1: host 0 leads partition 0, host 1 partition 1; each holds the other's copy. */
  private static PartitionMap twoHosts() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 2;
    }
    return PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 1, List.of(1, 0), 1)));
  }

  /** A log that holds every release until the test lets it go (a sync log whose fdatasync has not returned). */
  private static final class HeldLog implements CommitPipeline {
    final BlockingQueue<WorkItem> records = new LinkedBlockingQueue<>();
    final BlockingQueue<Runnable> releases = new LinkedBlockingQueue<>();

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {
      records.add(item.toProto(header));
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      releases.add(answer);
    }
  }

  /** Keeps what the leader's site hands its pipeline, as its log would record it, and the write hash. */
  private static final class LeaderRecorder implements CommitPipeline {
    final List<WorkItem> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<Long> hashes = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {
      logged.add(item.toProto(header));
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      answer.run();
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
      hashes.add(writeHash);
      answer.run();
    }
  }

  private static CompiledCatalog catalog() throws Exception {
    return new CatalogCompiler(ReplicaLogTest.class.getClassLoader()).compile(List.of(new SourceFile("kv.sql", DDL)));
  }

  private static ReplicaExecutor.Done into(CompletableFuture<Long> hash) {
    return new ReplicaExecutor.Done() {
      @Override
      public void ran(long writeHash) {
        hash.complete(writeHash);
      }

      @Override
      public void failed(String reason) {
        hash.completeExceptionally(new AssertionError(reason));
      }
    };
  }

  @Test
  void shouldAcknowledgeAReplicatedItemOnlyOnceItsRecordIsReleased() throws Exception {
    final LeaderRecorder leaderLog = new LeaderRecorder();
    long key = 0;
    while (twoHosts().partitionOf(key) != 0) {
      key++;
    }
    try (Database leader = Database.openHost(catalog(), twoHosts(), 0, 64, p -> leaderLog, QueryLimits.EMBEDDED)) {
      assertTrue(leader.callSync("Put", key, "v").ok());
    }
    final HeldLog log = new HeldLog();
    replica = Database.openHost(catalog(), twoHosts(), 1, 64, p -> ImmediateCommitPipeline.INSTANCE, log,
        QueryLimits.EMBEDDED);
    final CompletableFuture<Long> acknowledged = new CompletableFuture<>();
    final WorkItem sent = leaderLog.logged.get(0);
    assertTrue(replica.offerReplicated(sent, into(acknowledged)));
    final Runnable release = log.releases.poll(10, TimeUnit.SECONDS);
    assertTrue(release != null, "the copy handed the item it ran to its log");
    assertEquals(sent, log.records.poll(), "the replica logs the record its leader logged, under the leader's header");
    assertFalse(acknowledged.isDone(), "no acknowledgement before the log released the item");
    release.run();
    assertEquals(leaderLog.hashes.get(0), acknowledged.get(10, TimeUnit.SECONDS), "then with the leader's hash");
  }

  @Test
  void shouldLogAPartOfAMultiPartitionTransactionAsTheBatchesItRan() throws Exception {
    final HeldLog log = new HeldLog();
    replica = Database.openHost(catalog(), twoHosts(), 1, 64, p -> ImmediateCommitPipeline.INSTANCE, log,
        QueryLimits.EMBEDDED);
    final TxnHeader header = new TxnHeader(new org.partita.server.txn.TxnId(0, 1, 1), 5_000, 3, 1);
    final MultiPartitionJoin join = MultiPartitionJoin.newBuilder()
        .setCoordinator(new TxnHeader(new org.partita.server.txn.TxnId(65535, 1, 1), 4_000, 9, 1).toProto())
        .build();
    final WorkItem part = WorkItem.newBuilder().setHeader(header.toProto())
        .setMultiPartitionRun(MultiPartitionRun.newBuilder().setJoin(join)).build();
    final CompletableFuture<Long> acknowledged = new CompletableFuture<>();
    assertTrue(replica.offerReplicated(part, into(acknowledged)));
    final Runnable release = log.releases.poll(10, TimeUnit.SECONDS);
    assertTrue(release != null, "the copy handed the part it ran to its log");
    assertEquals(part, log.records.poll(), "logged as the engine batches it ran, replayable on this copy alone");
    assertFalse(acknowledged.isDone());
    release.run();
    assertEquals(0L, acknowledged.get(10, TimeUnit.SECONDS), "a part with no batches wrote nothing");
  }
}
