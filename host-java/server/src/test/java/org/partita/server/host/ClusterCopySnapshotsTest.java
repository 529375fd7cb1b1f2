package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;
import org.partita.server.database.QueryLimits;
import org.partita.server.database.SnapshotSink;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotStore;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.TxnId;

/**
 * A cluster host's part of a snapshot across hosts (docs/durability.md, "On
 * a cluster"): host 0 of two holds partitions 0 and 2 of three; their copies'
 * streams go into one directory whose manifest names those copies and their
 * cuts, complete once both finished; a single host passes it over; bad names
 * and copies the host does not hold are refused; parts the coordinator said
 * complete on every host are marked, and the two newest marked ones are kept
 * beside the two newest.
 */
@Timeout(60)
class ClusterCopySnapshotsTest {
  @TempDir
  Path dataDir;
  private CompiledCatalog catalog;
  private Database database;
  private ClusterCopySnapshots snapshots;

  @BeforeEach
  void open() throws Exception {
    catalog = new CatalogCompiler(getClass().getClassLoader()).compile(List.of(new SourceFile("t.sql",
        "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY); PARTITION TABLE t ON COLUMN id;")));
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    final PartitionMap map = PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0), 1),
        new PartitionMap.Replicas(1, 1, List.of(1), 1), new PartitionMap.Replicas(2, 0, List.of(0), 1)));
    database = Database.openHost(catalog, map, 0, 64, p -> ImmediateCommitPipeline.INSTANCE, QueryLimits.EMBEDDED);
    snapshots = new ClusterCopySnapshots(database, dataDir, 0, null, false);
  }

  @AfterEach
  void close() throws Exception {
    snapshots.close();
    if (database != null) {
      database.close();
    }
  }

  @Test
  void shouldWriteTheHostsCopiesIntoOneSnapshotCompleteOnceEachFinished() throws Exception {
    final SnapshotSink zero = snapshots.begin("snapshot-a", 0, new TxnId(0, 1, 12));
    zero.chunk(0, "rows of 0".getBytes(StandardCharsets.UTF_8), 0, 0);
    zero.finished(0);
    final SnapshotSink two = snapshots.begin("snapshot-a", 2, new TxnId(2, 1, 5));
    assertTrue(!snapshots.done("snapshot-a").isDone(), "partition 2 has not finished");
    two.chunk(2, "rows of 2".getBytes(StandardCharsets.UTF_8), 0, 0);
    two.finished(2);
    final SnapshotManifest manifest = snapshots.done("snapshot-a").get(30, TimeUnit.SECONDS);
    assertEquals(List.of(0, 2), manifest.copies());
    assertEquals(Arrays.asList(new TxnId(0, 1, 12), null, new TxnId(2, 1, 5)), manifest.cuts());
    final Path written = SnapshotStore.directory(dataDir).resolve("snapshot-a");
    SnapshotStore.verify(written, SnapshotManifest.read(written));
    final SnapshotRecovery.Choice choice = SnapshotRecovery.choose(dataDir, catalog, 3);
    assertNull(choice.chosen(), "a single host never loads a cluster host's part");
    assertTrue(choice.passedOver().get(0).contains("copies of partitions [0, 2] only"), choice.passedOver().toString());
  }

  /** Writes host 0's empty part of snapshot {@code name}: partitions 0 and 2 cut at {@code zero} and {@code two}. */
  private void writePart(String name, TxnId zero, TxnId two) throws Exception {
    final SnapshotSink first = snapshots.begin(name, 0, zero);
    first.finished(0);
    snapshots.begin(name, 2, two).finished(2);
    snapshots.done(name).get(30, TimeUnit.SECONDS);
  }

  /** A database of host 0 restarted in epoch 2 (as after --recover), its copies empty. */
  private Database restarted() throws Exception {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    final PartitionMap map = PartitionMap.of(2, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0), 2),
        new PartitionMap.Replicas(1, 1, List.of(1), 2), new PartitionMap.Replicas(2, 0, List.of(0), 2)));
    return Database.openHost(catalog, map, 0, 64, p -> ImmediateCommitPipeline.INSTANCE, QueryLimits.EMBEDDED);
  }

  @Test
  void shouldLoadEachCopyFromTheNewestPartWhoseCutTheReconciliationKept() throws Exception {
    writePart("snapshot-1", new TxnId(0, 1, 4), new TxnId(2, 1, 3));
    writePart("snapshot-2", new TxnId(0, 1, 12), new TxnId(2, 1, 5));
    // Partition 0's copies were reconciled to 1:10: the newer part holds more, so partition 0 takes the older.
    final List<org.partita.proto.cluster.VoidTail> voids = List.of(org.partita.proto.cluster.VoidTail.newBuilder()
        .setPartition(0).setCutEpoch(1).setCutSequence(10).setNextEpoch(2).build());
    try (Database again = restarted()) {
      final TxnId[] loaded = ClusterSnapshotRecovery.load(again, dataDir, again.partitionMap(), 0, voids);
      assertEquals(Arrays.asList(new TxnId(0, 1, 4), null, new TxnId(2, 1, 5)), Arrays.asList(loaded));
    }
    try (Database again = restarted()) {
      final TxnId[] loaded = ClusterSnapshotRecovery.load(again, dataDir, again.partitionMap(), 0, List.of());
      assertEquals(Arrays.asList(new TxnId(0, 1, 12), null, new TxnId(2, 1, 5)), Arrays.asList(loaded));
    }
    // A damaged newest part is passed over for the older one.
    final Path file = SnapshotStore.directory(dataDir).resolve("snapshot-2").resolve(SnapshotManifest.partitionFile(2));
    Files.write(file, new byte[] {1, 2, 3}, java.nio.file.StandardOpenOption.APPEND);
    try (Database again = restarted()) {
      final TxnId[] loaded = ClusterSnapshotRecovery.load(again, dataDir, again.partitionMap(), 0, List.of());
      assertEquals(Arrays.asList(new TxnId(0, 1, 4), null, new TxnId(2, 1, 3)), Arrays.asList(loaded));
    }
  }

  @Test
  void shouldRefuseABadNameACopyNotHeldAndASecondCut() throws Exception {
    assertThrows(IllegalArgumentException.class, () -> snapshots.begin("../elsewhere", 0, new TxnId(0, 1, 1)));
    assertTrue(!Files.exists(dataDir.resolve("elsewhere")));
    snapshots.begin("snapshot-b", 0, new TxnId(0, 1, 1));
    final IllegalStateException notHeld = assertThrows(IllegalStateException.class,
        () -> snapshots.begin("snapshot-b", 1, new TxnId(1, 1, 1)));
    assertTrue(notHeld.getMessage().contains("partition 1"), notHeld.getMessage());
    assertThrows(IllegalStateException.class, () -> snapshots.begin("snapshot-b", 0, new TxnId(0, 1, 2)));
    final ExecutionException none = assertThrows(ExecutionException.class,
        () -> snapshots.done("snapshot-c").get(30, TimeUnit.SECONDS));
    assertTrue(none.getCause().getMessage().contains("no part of snapshot snapshot-c"));
  }

  @Test
  void shouldMarkPartsCompleteOnEveryHostAndKeepTheNewestMarkedOnes() throws Exception {
    for (int i = 1; i <= 2; i++) {
      writePart("snapshot-" + i, new TxnId(0, 1, i), new TxnId(2, 1, i));
      snapshots.doneOnEveryHost("snapshot-" + i).get(30, TimeUnit.SECONDS);
      assertTrue(ClusterLogTruncation.onEveryHost(SnapshotStore.directory(dataDir).resolve("snapshot-" + i)));
    }
    for (int i = 3; i <= 5; i++) {
      writePart("snapshot-" + i, new TxnId(0, 1, i), new TxnId(2, 1, i));
    }
    // Parts 3, 4 and 5 only this host completed: the two newest stay, and so do the two marked ones.
    final List<String> expected = List.of("snapshot-5", "snapshot-4", "snapshot-2", "snapshot-1");
    // Removal deletes a part's manifest first (it stops being complete), then its files: wait for both, or the
    // test's directory would be cleaned up while the removal still runs.
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!(names().equals(expected) && directories().equals(java.util.Set.copyOf(expected)))
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(expected, names());
    assertEquals(java.util.Set.copyOf(expected), directories(), "the parts left out are removed whole");
    assertEquals(SnapshotStore.directory(dataDir).resolve("snapshot-1"), ClusterLogTruncation.truncationPoint(
        SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir)), ClusterLogTruncation::onEveryHost));
    final ExecutionException none = assertThrows(ExecutionException.class,
        () -> snapshots.doneOnEveryHost("snapshot-9").get(30, TimeUnit.SECONDS));
    assertTrue(none.getCause().getMessage().contains("no part of snapshot snapshot-9"), none.getMessage());
  }

  /** The names of every directory under the host's snapshot directory, complete or not. */
  private java.util.Set<String> directories() throws Exception {
    try (java.util.stream.Stream<Path> entries = Files.list(SnapshotStore.directory(dataDir))) {
      return entries.map(p -> p.getFileName().toString()).collect(java.util.stream.Collectors.toSet());
    }
  }

  private List<String> names() throws Exception {
    return SnapshotStore.completeSnapshots(SnapshotStore.directory(dataDir)).stream()
        .map(p -> p.getFileName().toString()).toList();
  }
}
