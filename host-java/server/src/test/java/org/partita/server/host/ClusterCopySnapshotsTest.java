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
 * and copies the host does not hold are refused.
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
    snapshots = new ClusterCopySnapshots(database, dataDir, 0);
  }

  @AfterEach
  void close() throws Exception {
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
}
