package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * One host of a cluster ({@link Database#openHost}): it runs the
 * partitions it leads, answers NOT_LEADER for the others, and refuses
 * multi-partition work and schema changes instead of running them on its
 * partitions alone. With K = 1 it also holds replica copies, which run
 * their leader's items under the leader's headers with the leader's write
 * hash and are never reached by calls.
 */
class ClusterHostDatabaseTest {
  private static final String DDL = """
      CREATE TABLE kv (k BIGINT NOT NULL PRIMARY KEY, v VARCHAR(10));
      PARTITION TABLE kv ON COLUMN k;
      CREATE TABLE names (id INTEGER PRIMARY KEY, name VARCHAR(10));
      CREATE PROCEDURE Put PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS UPSERT INTO kv (k, v) VALUES (?, ?);
      CREATE PROCEDURE Get PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS SELECT v FROM kv WHERE k = ?;
      CREATE PROCEDURE CountAll AS SELECT COUNT(*) FROM kv;
      """;

  private Database db;

  @AfterEach
  void close() throws Exception {
    if (db != null) {
      db.close();
    }
  }

  /** Host 1 of three hosts with two partitions each: it leads partitions 1 and 4 (bucket mod 6 round the hosts). */
  private PartitionMap threeHosts() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 6;
    }
    final List<PartitionMap.Replicas> partitions = new java.util.ArrayList<>();
    for (int p = 0; p < 6; p++) {
      partitions.add(new PartitionMap.Replicas(p, p % 3, List.of(p % 3), 1));
    }
    return PartitionMap.of(1, buckets, partitions);
  }

  private void openHostOne() throws Exception {
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("kv.sql", DDL)));
    db = Database.openHost(catalog, threeHosts(), 1, 64, ImmediateCommitPipeline.INSTANCE, QueryLimits.EMBEDDED);
  }

  /** A key whose partition is (or is not) led by host 1. */
  private long key(boolean onHostOne) {
    for (long k = 0; ; k++) {
      final int partition = db.partitionMap().partitionOf(k);
      if ((partition % 3 == 1) == onHostOne) {
        return k;
      }
    }
  }

  @Test
  void shouldRunThePartitionsItLeads() throws Exception {
    openHostOne();
    assertEquals(2, db.partitionStatuses().size());
    assertEquals(List.of(1, 4), db.partitionStatuses().stream().map(Database.PartitionStatus::partition).toList());
    final long local = key(true);
    assertTrue(db.callSync("Put", local, "here").ok());
    assertEquals(List.of("here"), SqlRows.rows(db, "SELECT v FROM kv WHERE k = ?", local));
    assertTrue(db.callSync("Get", local).ok());
    assertEquals(List.of("here"), SqlRows.rows(db, "SELECT v FROM kv WHERE k = ?", local));
    // A replicated table's read runs on a partition this host has.
    assertTrue(db.adHocSync("SELECT COUNT(*) FROM names").ok());
  }

  @Test
  void shouldAnswerNotLeaderForAnotherHostsPartition() throws Exception {
    openHostOne();
    final long remote = key(false);
    final int partition = db.partitionMap().partitionOf(remote);
    final ClientResponse call = db.callSync("Put", remote, "there");
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, call.errorCode(), call.message());
    assertEquals("partition " + partition + " is led by host " + partition % 3 + ", not by this host (1); "
        + "topology version 1; the call was not run: send it to the leader", call.message());
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, db.adHocSync("SELECT v FROM kv WHERE k = ?", remote).errorCode());
    assertThrows(IllegalArgumentException.class, () -> db.cancelPartition(partition));
  }

  @Test
  void shouldRefuseWorkThatNeedsEveryPartition() throws Exception {
    openHostOne();
    for (ClientResponse refused : List.of(db.callSync("CountAll"), db.adHocSync("SELECT COUNT(*) FROM kv"),
        db.adHocSync("INSERT INTO names VALUES (1, 'one')"), db.adHocSync("CREATE TABLE t (a INTEGER)"))) {
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, refused.errorCode(), refused.message());
      assertTrue(refused.message().startsWith("this host holds 2 of the cluster's 6 partitions, and "
          + "multi-partition transactions"), refused.message());
      assertTrue(refused.message().endsWith("until it is connected to the other hosts (docs/cluster.md,"
          + " \"Multi-partition transactions\"); the call was not run"), refused.message());
    }
    assertEquals(0, db.coordinatorBacklog());
  }

  /** Host 1 of two with K = 1: it leads partition 1 and replicates partition 0 (led by host 0). */
  private void openReplicatingHostOne() throws Exception {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 2;
    }
    final PartitionMap map = PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 1, List.of(1, 0), 1)));
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("kv.sql", DDL)));
    db = Database.openHost(catalog, map, 1, 64, p -> ImmediateCommitPipeline.INSTANCE, QueryLimits.EMBEDDED);
  }

  @Test
  void shouldOpenACopyForEveryReplicaButServeOnlyThePartitionsItLeads() throws Exception {
    openReplicatingHostOne();
    assertEquals(List.of(1), db.partitionStatuses().stream().map(Database.PartitionStatus::partition).toList());
    assertEquals(List.of(0), db.replicaPartitions());
    final long replicated = key(0);
    final ClientResponse call = db.callSync("Put", replicated, "x");
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, call.errorCode(), call.message());
    assertTrue(call.message().startsWith("partition 0 is led by host 0, not by this host (1)"), call.message());
    final ClientResponse count = db.adHocSync("SELECT COUNT(*) FROM kv");
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, count.errorCode(), "no multi-partition work with replicas");
  }

  /** Records what a leader's site hands its pipeline: the item as a replica gets it, and the write hash. */
  private static final class Recorder implements CommitPipeline {
    final List<org.partita.proto.txn.WorkItem> items = new java.util.concurrent.CopyOnWriteArrayList<>();
    final List<Long> hashes = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {}

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      answer.run();
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, long writeHash, Runnable answer) {
      items.add(item.toProto(header));
      hashes.add(writeHash);
      answer.run();
    }
  }

  @Test
  void shouldRunALeadersItemOnTheReplicaCopyWithTheSameWriteHash() throws Exception {
    openReplicatingHostOne();
    final long replicated = key(0);
    final Recorder recorder = new Recorder();
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("kv.sql", DDL)));
    try (Database leader = Database.openHost(catalog, db.partitionMap(), 0, 64, p -> recorder,
        QueryLimits.EMBEDDED)) {
      assertTrue(leader.callSync("Put", replicated, "v").ok());
      assertTrue(leader.callSync("Get", replicated).ok());
    }
    assertEquals(2, recorder.hashes.size());
    assertTrue(recorder.hashes.get(0) != 0, "the write changed the leader's copy");
    assertEquals(0L, (long) recorder.hashes.get(1), "the read changed nothing");
    final CompletableFuture<Long> hash = new CompletableFuture<>();
    assertTrue(db.offerReplicated(recorder.items.get(0), new ReplicaExecutor.Done() {
      @Override
      public void ran(long writeHash) {
        hash.complete(writeHash);
      }

      @Override
      public void failed(String reason) {
        hash.completeExceptionally(new AssertionError(reason));
      }
    }));
    assertEquals((long) recorder.hashes.get(0), (long) hash.get(10, TimeUnit.SECONDS),
        "the replica's hash is the leader's");
    final List<Database.CopyChecksum> copies = db.offerChecksums().get(10, TimeUnit.SECONDS);
    assertEquals(2, copies.size());
    assertEquals(0, copies.get(0).partition());
    assertFalse(copies.get(0).leader());
    assertEquals(new TxnId(0, 1, 1), copies.get(0).lastApplied());
    assertTrue(copies.get(1).leader());
    assertThrows(IllegalArgumentException.class, () -> db.offerReplicated(recorder.items.get(0).toBuilder()
        .setHeader(recorder.items.get(0).getHeader().toBuilder().setPartition(1)).build(), null),
        "this host leads partition 1: it takes no replicated items for it");
  }

  /** A key of {@code partition} in a map of two partitions (bucket mod 2). */
  private long key(int partition) {
    for (long k = 0; ; k++) {
      if (db.partitionMap().partitionOf(k) == partition) {
        return k;
      }
    }
  }

  @Test
  void shouldRunEverythingOnAClusterOfOneHost() throws Exception {
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("kv.sql", DDL)));
    db = Database.openHost(catalog, PartitionMap.singleHost(2, 0), 0, 64, ImmediateCommitPipeline.INSTANCE,
        QueryLimits.EMBEDDED);
    assertTrue(db.callSync("Put", 1L, "one").ok());
    assertTrue(db.callSync("Put", 2L, "two").ok());
    assertEquals(List.of("2"), SqlRows.rows(db, "SELECT COUNT(*) FROM kv"));
    assertTrue(db.adHocSync("INSERT INTO names VALUES (1, 'one')").ok());
  }
}
