package org.partita.fault;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The summary's {@code replicas identical:} line for a cluster: every copy
 * of every partition must hold the same rows, compared by per-copy
 * checksums. With K = 0 there is one copy per partition and nothing to
 * compare ({@code n/a}); after a kill a partition may be left with one
 * copy, which is counted, not compared; with K ≥ 1 the copies' checksums come from the
 * cluster, and while it exposes none the verdict is {@code unknown} and the
 * run does not pass. Given the final map ({@link Copies}), only the copies
 * it lists are copies: one reported beyond them, or one missing, is a
 * {@code no}. Never {@code yes} unless copies were compared.
 * Immutable.
 *
 * @param text what follows "replicas identical: "
 * @param passed whether the run may pass on it
 */
record ReplicaVerdict(String text, boolean passed) {
  /** One copy's checksum of one partition, as the cluster reports it. */
  record CopyChecksum(int partition, int host, String checksum) {
  }

  /**
   * Every copy's checksum and the map they were read under: by partition
   * id, the hosts its epoch lists as its copies.
   */
  record Copies(List<CopyChecksum> checksums, Map<Integer, List<Integer>> members) {
  }

  /**
   * The verdict from the copies the final map lists ({@code copies.members()}):
   * a checksum from a host the map does not list for that partition is a
   * copy the host should no longer report (it left the partition), and one
   * the map lists but no host reported is missing; both fail. The listed
   * copies are then compared as {@link #of(int, List, int)} does; null
   * {@code copies}: none exposed.
   */
  static ReplicaVerdict of(int kfactor, Copies copies, int killed) {
    if (kfactor == 0 || copies == null) {
      return of(kfactor, (List<CopyChecksum>) null, killed);
    }
    for (CopyChecksum c : copies.checksums()) {
      final List<Integer> listed = copies.members().getOrDefault(c.partition(), List.of());
      if (!listed.contains(c.host())) {
        return new ReplicaVerdict("no (host " + c.host() + " reports a copy of partition " + c.partition()
            + " (" + c.checksum() + ") that the final map does not list: its copies are on hosts " + listed + ")",
            false);
      }
    }
    for (Map.Entry<Integer, List<Integer>> e : copies.members().entrySet()) {
      for (int host : e.getValue()) {
        final boolean reported = copies.checksums().stream()
            .anyMatch(c -> c.partition() == e.getKey() && c.host() == host);
        if (!reported) {
          return new ReplicaVerdict("no (the final map lists host " + host + " as a copy of partition " + e.getKey()
              + ", which reported none)", false);
        }
      }
    }
    return of(kfactor, copies.checksums(), killed);
  }

  /**
   * The verdict for a cluster with {@code kfactor} and no host killed,
   * given every copy's checksum, or null when the cluster exposes none.
   */
  static ReplicaVerdict of(int kfactor, List<CopyChecksum> copies) {
    return of(kfactor, copies, 0);
  }

  /**
   * The verdict for a cluster with {@code kfactor} of which {@code killed}
   * hosts were killed for good: a partition may then have lost up to that
   * many copies (never all); those left with two or more are compared, one
   * left alone has nothing to compare and is counted apart.
   */
  static ReplicaVerdict of(int kfactor, List<CopyChecksum> copies, int killed) {
    if (kfactor == 0) {
      return new ReplicaVerdict("n/a (K=0, one copy per partition)", true);
    }
    if (copies == null) {
      return new ReplicaVerdict("unknown (K=" + kfactor + ": the cluster exposes no per-copy checksum to "
          + "compare yet)", false);
    }
    final Map<Integer, List<CopyChecksum>> byPartition = new TreeMap<>();
    for (CopyChecksum c : copies) {
      byPartition.computeIfAbsent(c.partition(), p -> new java.util.ArrayList<>()).add(c);
    }
    if (byPartition.isEmpty()) {
      return new ReplicaVerdict("no (the cluster reported no copy at all)", false);
    }
    int compared = 0;
    int alone = 0;
    for (Map.Entry<Integer, List<CopyChecksum>> e : byPartition.entrySet()) {
      final List<CopyChecksum> partitionCopies = e.getValue();
      final int expected = kfactor + 1;
      if (partitionCopies.size() > expected || partitionCopies.size() < expected - killed) {
        return new ReplicaVerdict("no (partition " + e.getKey() + " has " + partitionCopies.size() + " copies, "
            + "not K+1 = " + expected + (killed == 0 ? "" : " less at most " + killed + " killed") + ")", false);
      }
      if (partitionCopies.size() == 1) {
        alone++;
        continue;
      }
      compared += partitionCopies.size();
      final CopyChecksum first = partitionCopies.get(0);
      for (CopyChecksum c : partitionCopies) {
        if (!c.checksum().equals(first.checksum())) {
          return new ReplicaVerdict("no (partition " + e.getKey() + ": host " + first.host() + " has "
              + first.checksum() + ", host " + c.host() + " has " + c.checksum() + ")", false);
        }
      }
    }
    return new ReplicaVerdict("yes (" + byPartition.size() + " partitions, " + compared + " copies compared"
        + (alone == 0 ? "" : "; " + alone + " partition" + (alone == 1 ? "" : "s") + " left with one copy by the "
        + "kill, nothing to compare") + ")", true);
  }
}
