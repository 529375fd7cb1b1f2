package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnId;

/**
 * The cut of a snapshot across hosts (docs/durability.md, "On a cluster")
 * without sockets: two hosts in one process, each leading one partition and
 * holding a copy of the other's, every leader's items carried to the other
 * host's copy in memory. The coordinator (host 0) cuts partition 0 on its own
 * site and partition 1 through a step to host 1; each leader sends its cut
 * mark to its replica in the partition's order, so while writes go on both
 * copies of each partition cut at the same item and stream the same rows.
 * A {@code @SnapshotSave} forwarded from host 1 runs on host 0.
 */
@Timeout(120)
class SnapshotAcrossHostsTest {
  private static final String DDL = """
      CREATE TABLE account (id BIGINT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL, ops BIGINT NOT NULL);
      PARTITION TABLE account ON COLUMN id;
      CREATE PROCEDURE Open PARTITION ON TABLE account COLUMN id PARAMETER 0
        AS INSERT INTO account (id, balance, ops) VALUES (?, ?, 0);
      CREATE PROCEDURE FROM CLASS org.partita.server.replication.procs.MoveMoney;
      """;

  private final Database[] db = new Database[2];
  private final List<String> failures = new CopyOnWriteArrayList<>();
  /** What each copy streamed, by "host/partition/snapshot". */
  private final Map<String, Copy> copies = new ConcurrentHashMap<>();
  private PartitionMap map;

  /** One copy's snapshot as it streamed it. */
  private static final class Copy implements SnapshotSink {
    final TxnId cut;
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final CompletableFuture<Void> finished = new CompletableFuture<>();

    Copy(TxnId cut) {
      this.cut = cut;
    }

    @Override
    public boolean cancelled() {
      return false;
    }

    @Override
    public boolean ready(int partition) {
      return true;
    }

    @Override
    public synchronized void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos) {
      bytes.writeBytes(chunk);
    }

    @Override
    public void finished(int partition) {
      finished.complete(null);
    }

    @Override
    public void failed(int partition, RuntimeException error) {
      finished.completeExceptionally(error);
    }
  }

  /** One host's copies' snapshots, kept in {@link #copies}; a snapshot is done once each of its copies finished. */
  private final class HostCopies implements CopySnapshots {
    private final int host;

    HostCopies(int host) {
      this.host = host;
    }

    @Override
    public SnapshotSink begin(String name, int partition, TxnId cut) {
      final Copy copy = new Copy(cut);
      if (copies.putIfAbsent(host + "/" + partition + "/" + name, copy) != null) {
        throw new IllegalStateException("a second cut of " + name + " on host " + host);
      }
      return copy;
    }

    @Override
    public CompletableFuture<?> done(String name) {
      final List<CompletableFuture<Void>> finished = new ArrayList<>();
      copies.forEach((key, copy) -> {
        if (key.startsWith(host + "/") && key.endsWith("/" + name)) {
          finished.add(copy.finished);
        }
      });
      return finished.isEmpty() ? CompletableFuture.failedFuture(new IllegalStateException("no copy cut for " + name))
          : CompletableFuture.allOf(finished.toArray(CompletableFuture[]::new));
    }
  }

  private static PartitionMap map() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 2;
    }
    return PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 1, List.of(1, 0), 1)));
  }

  @BeforeEach
  void open() throws Exception {
    map = map();
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("bank.sql", DDL)));
    for (int h = 0; h < 2; h++) {
      final CopyingPipeline pipeline = new CopyingPipeline(db, 1 - h, host -> false, failures);
      db[h] = Database.openHost(catalog, map, h, 1024, p -> pipeline, QueryLimits.EMBEDDED);
      db[h].copySnapshots(new HostCopies(h));
    }
    for (int h = 0; h < 2; h++) {
      db[h].connectHosts(HostTransport.of(this::step, this::forward));
    }
  }

  @AfterEach
  void close() throws Exception {
    for (Database d : db) {
      if (d != null) {
        d.close();
      }
    }
  }

  private CompletableFuture<FragmentAnswer> step(int host, org.partita.proto.cluster.FragmentRequest request) {
    final CompletableFuture<FragmentAnswer> answer = new CompletableFuture<>();
    db[host].serveFragment(request, answer::complete);
    return answer;
  }

  private CompletableFuture<ForwardedAnswer> forward(int host, org.partita.proto.cluster.ForwardedCall call) {
    final CompletableFuture<ForwardedAnswer> answer = new CompletableFuture<>();
    db[host].serveForwarded(call, answer::complete);
    return answer;
  }

  private CompletableFuture<ClientResponse> open(long id) {
    return db[map.leaderOf(map.partitionOf(id))].call("Open", id, 1_000L);
  }

  private static void ok(CompletableFuture<ClientResponse> call) throws Exception {
    final ClientResponse answer = call.get(60, TimeUnit.SECONDS);
    assertTrue(answer.ok(), answer.toString());
  }

  private Copy copy(int host, int partition, String name) {
    final Copy copy = copies.get(host + "/" + partition + "/" + name);
    assertTrue(copy != null, "host " + host + "'s copy of partition " + partition + " cut for " + name);
    return copy;
  }

  @Test
  void shouldCutEveryCopyOfAPartitionAtTheSameItemWhileWritesGoOn() throws Exception {
    for (long id = 0; id < 200; id++) {
      ok(open(id));
    }
    // At most 600 writes in flight: each copy's queue (1,024 items) takes every item its leader sends.
    final List<CompletableFuture<ClientResponse>> during = new ArrayList<>();
    for (long id = 200; id < 500; id++) {
      during.add(open(id));
    }
    during.add(db[1].call("MoveMoney", 0L, 1L, 5L));
    final CompletableFuture<List<TxnId>> cut = db[0].cutSnapshotAcrossHosts("s1");
    for (long id = 500; id < 800; id++) {
      during.add(open(id));
    }
    final List<TxnId> cuts = cut.get(60, TimeUnit.SECONDS);
    db[0].snapshotCompleteOnHosts("s1", 60_000).get(60, TimeUnit.SECONDS);
    for (CompletableFuture<ClientResponse> call : during) {
      ok(call);
    }
    assertEquals(2, cuts.size());
    for (int p = 0; p < 2; p++) {
      final Copy leader = copy(map.leaderOf(p), p, "s1");
      final Copy replica = copy(1 - map.leaderOf(p), p, "s1");
      leader.finished.get(60, TimeUnit.SECONDS);
      replica.finished.get(60, TimeUnit.SECONDS);
      assertEquals(cuts.get(p), leader.cut, "partition " + p + "'s leader cut at the mark the coordinator got");
      assertEquals(cuts.get(p), replica.cut, "partition " + p + "'s replica cut at its leader's mark");
      assertEquals(p, cuts.get(p).partition());
      assertTrue(leader.bytes.size() > 0);
      assertArrayEquals(leader.bytes.toByteArray(), replica.bytes.toByteArray(),
          "partition " + p + "'s copies streamed the same rows");
    }
    assertEquals(List.of(), failures);
  }

  @Test
  void shouldNameThePartitionWhoseHostTakesNoSnapshots() throws Exception {
    db[1].copySnapshots(null);
    final ExecutionException failed = assertThrows(ExecutionException.class,
        () -> db[0].cutSnapshotAcrossHosts("s2").get(60, TimeUnit.SECONDS));
    assertTrue(failed.getCause().getMessage().contains("partition 1"), failed.getCause().getMessage());
    final ExecutionException incomplete = assertThrows(ExecutionException.class,
        () -> db[0].snapshotCompleteOnHosts("s2", 60_000).get(60, TimeUnit.SECONDS));
    assertTrue(incomplete.getCause().getMessage().contains("host 1"), incomplete.getCause().getMessage());
    for (long id = 0; id < 10; id++) {
      ok(open(id));
    }
    ok(db[1].call("MoveMoney", 0L, 1L, 5L));
    assertEquals(List.of(), failures);
  }

  @Test
  void shouldRefuseACutFromAHostWithoutTheCoordinator() {
    assertThrows(IllegalStateException.class, () -> db[1].cutSnapshotAcrossHosts("s3"));
  }

  @Test
  void shouldRunAForwardedSnapshotSaveWhereTheCoordinatorIs() throws Exception {
    final ClientResponse unset = db[1].forwardSnapshotSave().get(60, TimeUnit.SECONDS);
    assertEquals(org.partita.proto.ErrorCode.ERROR_CODE_BAD_REQUEST, unset.errorCode(), unset.toString());
    final java.util.concurrent.atomic.AtomicInteger saves = new java.util.concurrent.atomic.AtomicInteger();
    db[0].forwardedSnapshotSave(() -> {
      saves.incrementAndGet();
      return CompletableFuture.completedFuture(ClientResponse.success(List.of()));
    });
    ok(db[1].forwardSnapshotSave());
    assertEquals(1, saves.get(), "host 1's call ran once, on host 0");
    assertThrows(IllegalStateException.class, () -> db[0].forwardSnapshotSave(), "host 0 forwards to nobody");
  }
}
