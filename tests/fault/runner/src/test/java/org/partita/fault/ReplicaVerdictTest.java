package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicaVerdictTest {
  private static ReplicaVerdict.CopyChecksum copy(int partition, int host, String checksum) {
    return new ReplicaVerdict.CopyChecksum(partition, host, checksum);
  }

  @Test
  void shouldSayNothingWasComparedWithOneCopy() {
    assertEquals(new ReplicaVerdict("n/a (K=0, one copy per partition)", true), ReplicaVerdict.of(0, null));
  }

  @Test
  void shouldNotPassWhenTheCopiesCannotBeCompared() {
    assertEquals(new ReplicaVerdict("unknown (K=1: the cluster exposes no per-copy checksum to compare yet)",
        false), ReplicaVerdict.of(1, null));
    assertEquals(false, ReplicaVerdict.of(1, List.of()).passed());
  }

  @Test
  void shouldCompareEveryPartitionsCopies() {
    assertEquals(new ReplicaVerdict("yes (2 partitions, 4 copies compared)", true), ReplicaVerdict.of(1,
        List.of(copy(0, 0, "a"), copy(0, 1, "a"), copy(1, 1, "b"), copy(1, 2, "b"))));
    assertEquals(new ReplicaVerdict("no (partition 1: host 1 has b, host 2 has c)", false), ReplicaVerdict.of(1,
        List.of(copy(0, 0, "a"), copy(0, 1, "a"), copy(1, 1, "b"), copy(1, 2, "c"))));
    assertEquals(new ReplicaVerdict("no (partition 0 has 1 copies, not K+1 = 2)", false), ReplicaVerdict.of(1,
        List.of(copy(0, 0, "a"))));
  }

  @Test
  void shouldCountAPartitionLeftWithOneCopyByAKillApart() {
    final List<ReplicaVerdict.CopyChecksum> afterKill = List.of(copy(0, 0, "a"), copy(0, 2, "a"), copy(1, 2, "b"),
        copy(2, 0, "c"));
    assertEquals(new ReplicaVerdict("yes (3 partitions, 2 copies compared; 2 partitions left with one copy by the "
        + "kill, nothing to compare)", true), ReplicaVerdict.of(1, afterKill, 1));
    assertEquals(new ReplicaVerdict("no (partition 1 has 1 copies, not K+1 = 2)", false),
        ReplicaVerdict.of(1, afterKill, 0));
    assertEquals(new ReplicaVerdict("no (partition 0: host 0 has a, host 2 has x)", false), ReplicaVerdict.of(1,
        List.of(copy(0, 0, "a"), copy(0, 2, "x"), copy(1, 2, "b")), 1));
    assertEquals(new ReplicaVerdict("no (partition 0 has 3 copies, not K+1 = 2 less at most 1 killed)", false),
        ReplicaVerdict.of(1, List.of(copy(0, 0, "a"), copy(0, 1, "a"), copy(0, 2, "a")), 1));
  }

  /**
   * The bank run of tests/fault/RESULTS.md: host 0 was dropped from
   * partition 0's epoch but still answered a checksum of what it had held.
   * Only the copies the final map lists are compared, and a host reporting a
   * copy the map does not list fails the run by name.
   */
  @Test
  void shouldCompareOnlyTheCopiesTheFinalMapLists() {
    final Map<Integer, List<Integer>> map = Map.of(0, List.of(1, 0), 1, List.of(2, 0), 2, List.of(1, 2));
    final List<ReplicaVerdict.CopyChecksum> copies = List.of(copy(0, 0, "a"), copy(0, 1, "a"), copy(1, 0, "b"),
        copy(1, 2, "b"), copy(2, 1, "c"), copy(2, 2, "c"));
    assertEquals(new ReplicaVerdict("yes (3 partitions, 6 copies compared)", true),
        ReplicaVerdict.of(1, new ReplicaVerdict.Copies(copies, map), 0));
    final Map<Integer, List<Integer>> dropped = Map.of(0, List.of(1), 1, List.of(2, 0), 2, List.of(1, 2));
    final List<ReplicaVerdict.CopyChecksum> left = List.of(copy(0, 0, "stale"), copy(0, 1, "a"), copy(1, 0, "b"),
        copy(1, 2, "b"), copy(2, 1, "c"), copy(2, 2, "c"));
    assertEquals(new ReplicaVerdict("no (host 0 reports a copy of partition 0 (stale) that the final map does not "
        + "list: its copies are on hosts [1])", false),
        ReplicaVerdict.of(1, new ReplicaVerdict.Copies(left, dropped), 0));
    assertEquals(new ReplicaVerdict("no (partition 0 has 1 copies, not K+1 = 2)", false),
        ReplicaVerdict.of(1, new ReplicaVerdict.Copies(left.subList(1, left.size()), dropped), 0),
        "a partition the map leaves with one copy when no host was killed fails");
    assertEquals(new ReplicaVerdict("no (the final map lists host 0 as a copy of partition 1, which reported none)",
        false), ReplicaVerdict.of(1, new ReplicaVerdict.Copies(List.of(copy(0, 0, "a"), copy(0, 1, "a"),
        copy(1, 2, "b"), copy(2, 1, "c"), copy(2, 2, "c")), map), 0));
  }
}
