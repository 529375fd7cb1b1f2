package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.TxnId;

/**
 * What decides a cluster host's log truncation ({@link ClusterLogTruncation},
 * docs/durability.md, "Log truncation on a cluster"): the truncation point is
 * the oldest of the two newest parts marked complete on every host, never a
 * part only this host completed; the parts kept always include it; the mark
 * is a file; and recovery ({@link ClusterRecovery#checkTruncation}) refuses a
 * truncated log whose deleted records no part it loads holds, for a copy it
 * holds, and finishes a truncation a crash interrupted.
 */
class ClusterLogTruncationTest {
  @TempDir
  Path dir;

  private static List<Path> parts(String... names) {
    final List<Path> out = new ArrayList<>();
    for (String name : names) {
      out.add(Path.of(name));
    }
    return out;
  }

  @Test
  void shouldTruncateUpToTheOlderOfTheTwoNewestPartsCompleteOnEveryHost() {
    final Set<Path> marked = Set.of(Path.of("s5"), Path.of("s3"), Path.of("s1"));
    assertEquals(Path.of("s3"), ClusterLogTruncation.truncationPoint(parts("s6", "s5", "s4", "s3", "s2", "s1"),
        marked::contains), "s5 and s3 are the newest marked: the older of them");
    assertEquals(Path.of("s5"), ClusterLogTruncation.truncationPoint(parts("s6", "s5", "s4"), marked::contains),
        "one marked part: it is the point, as after the first snapshot on one host");
    assertNull(ClusterLogTruncation.truncationPoint(parts("s6", "s4", "s2"), marked::contains),
        "parts only this host completed are never a truncation point");
    assertNull(ClusterLogTruncation.truncationPoint(List.of(), marked::contains));
  }

  @Test
  void shouldKeepTheTwoNewestPartsAndTheTwoNewestMarkedOnes() {
    final Set<Path> marked = Set.of(Path.of("s5"), Path.of("s3"), Path.of("s1"));
    assertEquals(parts("s6", "s5", "s3"), ClusterLogTruncation.kept(parts("s6", "s5", "s4", "s3", "s2", "s1"),
        marked::contains));
    assertEquals(parts("s7", "s6", "s5", "s3"), ClusterLogTruncation.kept(parts("s7", "s6", "s5", "s4", "s3"),
        marked::contains), "unmarked newer parts do not push the marked ones out");
  }

  @Test
  void shouldNeverRemoveTheTruncationPoint() {
    final Random random = new Random(7);
    for (int round = 0; round < 2000; round++) {
      final List<Path> complete = new ArrayList<>();
      final List<Path> marked = new ArrayList<>();
      for (int i = 10; i > 0; i--) {
        if (random.nextInt(3) > 0) {
          final Path part = Path.of("s" + i);
          complete.add(part);
          if (random.nextBoolean()) {
            marked.add(part);
          }
        }
      }
      final Path point = ClusterLogTruncation.truncationPoint(complete, marked::contains);
      final List<Path> kept = ClusterLogTruncation.kept(complete, marked::contains);
      assertTrue(point == null || kept.contains(point), () -> "kept " + kept + " lost the point " + point);
      assertTrue(kept.size() <= 4, kept::toString);
    }
  }

  @Test
  void shouldMarkAPartDurably() throws Exception {
    final Path part = Files.createDirectories(dir.resolve("snapshot-1"));
    assertFalse(ClusterLogTruncation.onEveryHost(part));
    ClusterLogTruncation.markEveryHost(part);
    assertTrue(ClusterLogTruncation.onEveryHost(part));
  }

  /** Host 0 holds partitions 0 and 2 of three; its log's mark covers 0 up to 1:10 and 2 up to 1:7. */
  private PartitionMap mapOfHostZero() throws Exception {
    final Path log = Files.createDirectories(dir.resolve("commandlog"));
    Files.writeString(log.resolve("TRUNCATED"), "first-segment 3\ncut 0 1:10\ncut 1 none\ncut 2 1:7\n",
        StandardCharsets.UTF_8);
    for (int n = 1; n <= 4; n++) {
      Files.write(log.resolve(String.format("segment-%010d.log", n)), new byte[0]);
    }
    final int[] buckets = new int[PartitionMap.BUCKETS];
    return PartitionMap.of(1, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 1, List.of(1, 2), 1), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1)));
  }

  @Test
  void shouldRefuseATruncatedLogWhoseRecordsNoLoadedPartHolds() throws Exception {
    final PartitionMap map = mapOfHostZero();
    final StartupException older = assertThrows(StartupException.class, () -> ClusterRecovery.checkTruncation(dir,
        new TxnId[] {new TxnId(0, 1, 9), null, new TxnId(2, 1, 7)}, map, 0));
    assertTrue(older.getMessage().contains("partition 0") && older.getMessage().contains("1:10"),
        older.getMessage());
    final StartupException none = assertThrows(StartupException.class, () -> ClusterRecovery.checkTruncation(dir,
        new TxnId[] {new TxnId(0, 1, 10), null, null}, map, 0));
    assertTrue(none.getMessage().contains("partition 2"), none.getMessage());
    assertTrue(Files.exists(dir.resolve("commandlog").resolve("segment-0000000001.log")), "nothing deleted");
  }

  @Test
  void shouldFinishATruncationACrashInterrupted() throws Exception {
    final PartitionMap map = mapOfHostZero();
    assertEquals(3, ClusterRecovery.checkTruncation(dir,
        new TxnId[] {new TxnId(0, 1, 10), null, new TxnId(2, 2, 1)}, map, 0));
    assertFalse(Files.exists(dir.resolve("commandlog").resolve("segment-0000000001.log")));
    assertFalse(Files.exists(dir.resolve("commandlog").resolve("segment-0000000002.log")));
    assertTrue(Files.exists(dir.resolve("commandlog").resolve("segment-0000000003.log")));
  }
}
