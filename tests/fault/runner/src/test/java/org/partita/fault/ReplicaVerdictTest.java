package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
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
}
