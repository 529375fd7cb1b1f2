package org.partita.server.cluster;

import java.util.ArrayList;
import java.util.List;
import org.partita.server.topology.PartitionMap;

/**
 * Which partition leaders to move so that the hosts of a cluster lead as
 * evenly as the copies allow (docs/cluster.md, "Leader rebalancing"). A
 * failover leaves the partitions a dead host led to their surviving copies,
 * and a host that rejoins comes back holding copies only; this plan hands
 * leadership back to copies on hosts that lead too few.
 *
 * <p>Each step moves one partition not moved before from its leader's host
 * to a host holding a copy of it that leads at least two fewer (the widest
 * such gap first; on ties the lowest host ids, then the lowest partition). Every
 * step lowers the sum of the squares of the hosts' leader counts, so the
 * plan ends, and it ends when no move can narrow a gap of two or more. The
 * plan is a function of the map alone: every host computes the same one.
 */
public final class LeaderBalance {
  private LeaderBalance() {}

  /** Partition {@code partition}'s leadership moves from host {@code from} to host {@code to}. */
  public record Move(int partition, int from, int to) {}

  /**
   * The moves, in order, that even out the leaders of {@code map} among
   * {@code hostCount} hosts. Each move is of a distinct partition.
   */
  public static List<Move> plan(PartitionMap map, int hostCount) {
    final int[] leaders = new int[map.partitionCount()];
    final int[] led = new int[hostCount];
    for (int p = 0; p < leaders.length; p++) {
      leaders[p] = map.leaderOf(p);
      led[leaders[p]]++;
    }
    final List<Move> moves = new ArrayList<>();
    final boolean[] moved = new boolean[leaders.length];
    while (true) {
      final Move next = widestGapMove(map, leaders, led, moved);
      if (next == null) {
        return moves;
      }
      moves.add(next);
      moved[next.partition()] = true;
      leaders[next.partition()] = next.to();
      led[next.from()]--;
      led[next.to()]++;
    }
  }

  /** The move that narrows the widest gap of two or more, or null when there is none. */
  private static Move widestGapMove(PartitionMap map, int[] leaders, int[] led, boolean[] moved) {
    Move best = null;
    int bestGap = 1;
    for (int p = 0; p < leaders.length; p++) {
      if (moved[p]) {
        continue;
      }
      final int from = leaders[p];
      for (int to : map.replicas(p).replicaHosts()) {
        final int gap = led[from] - led[to];
        if (to != from && (gap > bestGap || gap == bestGap && best != null && better(from, to, p, best))) {
          best = new Move(p, from, to);
          bestGap = gap;
        }
      }
    }
    return best;
  }

  /** The tie-break between moves of the same gap: lower source host, then lower target host, then partition. */
  private static boolean better(int from, int to, int partition, Move than) {
    if (from != than.from()) {
      return from < than.from();
    }
    return to != than.to() ? to < than.to() : partition < than.partition();
  }
}
