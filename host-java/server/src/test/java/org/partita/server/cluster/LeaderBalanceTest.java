package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.partita.server.topology.PartitionMap;

/**
 * The plan that evens out partition leaders (docs/cluster.md, "Leader
 * rebalancing"): nothing moves on a formation's map; a failover's leftover
 * (a host that came back leading nothing) is undone; each move hands a
 * partition from its leader at that point to one of its copies; the plan
 * ends with no gap of two or more that a move could narrow.
 */
class LeaderBalanceTest {
  /** {@code map} with partition {@code p} led by {@code host} instead (same copies, next epoch). */
  private static PartitionMap led(PartitionMap map, int p, int host) {
    final List<PartitionMap.Replicas> out = new ArrayList<>();
    for (int q = 0; q < map.partitionCount(); q++) {
      final PartitionMap.Replicas r = map.replicas(q);
      out.add(q == p ? new PartitionMap.Replicas(q, host, r.replicaHosts(), r.epoch() + 1) : r);
    }
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = map.partitionOfBucket(b);
    }
    return PartitionMap.of(map.version() + 1, buckets, out);
  }

  private static int[] counts(PartitionMap map, int hosts, List<LeaderBalance.Move> moves) {
    final int[] leaders = new int[map.partitionCount()];
    for (int p = 0; p < leaders.length; p++) {
      leaders[p] = map.leaderOf(p);
    }
    final Set<Integer> moved = new HashSet<>();
    for (LeaderBalance.Move m : moves) {
      assertEquals(leaders[m.partition()], m.from(), "a move starts from the partition's leader then: " + m);
      assertTrue(map.replicas(m.partition()).replicaHosts().contains(m.to()), "a move goes to a copy: " + m);
      assertTrue(moved.add(m.partition()), "each partition moves once: " + moves);
      leaders[m.partition()] = m.to();
    }
    final int[] counts = new int[hosts];
    for (int leader : leaders) {
      counts[leader]++;
    }
    return counts;
  }

  @Test
  void shouldMoveNothingOnAFormationsMap() {
    for (int hosts = 1; hosts <= 12; hosts++) {
      for (int sites = 1; sites <= 4; sites++) {
        for (int k = 0; k <= 2 && k < hosts; k++) {
          if (hosts * sites % (k + 1) != 0) {
            continue; // not a valid configuration
          }
          assertEquals(List.of(), LeaderBalance.plan(Placement.of(hosts, sites, k), hosts),
              hosts + " hosts, " + sites + " sites, K = " + k);
        }
      }
    }
  }

  @Test
  void shouldHandTheDeadHostsPartitionBackOnceItRejoined() {
    // 3 hosts, 2 sites, K = 1: copies {0,1}, {2,0}, {1,2} led by 0, 2, 1. Host 0 died: partition 0 went to host 1.
    final PartitionMap formed = Placement.of(3, 2, 1);
    assertEquals(0, formed.leaderOf(0));
    final PartitionMap afterFailover = led(formed, 0, 1);
    assertEquals(List.of(new LeaderBalance.Move(0, 1, 0)), LeaderBalance.plan(afterFailover, 3));
  }

  @Test
  void shouldNarrowOnlyGapsTheCopiesAllow() {
    // 4 hosts, 2 sites, K = 1: copies {0,1}, {2,3}, {0,1}, {2,3}. Host 0 leads both of its partitions and host 1
    // none: one moves to host 1. Hosts 2 and 3 hold no copy of them, so nothing of theirs changes.
    final PartitionMap formed = Placement.of(4, 2, 1);
    PartitionMap map = formed;
    for (int p = 0; p < map.partitionCount(); p++) {
      if (map.replicas(p).replicaHosts().contains(0)) {
        map = led(map, p, 0);
      }
    }
    final List<LeaderBalance.Move> moves = LeaderBalance.plan(map, 4);
    assertEquals(1, moves.size(), moves.toString());
    assertEquals(0, moves.get(0).from());
    assertEquals(1, moves.get(0).to());
    assertEquals(List.of(1, 1, 1, 1), asList(counts(map, 4, moves)));
  }

  @Test
  void shouldEndWithNoGapAMoveCouldNarrowOnRandomLeaders() {
    final Random random = new Random(42);
    for (int round = 0; round < 2000; round++) {
      final int hosts = 2 + random.nextInt(11);
      final int sites = 1 + random.nextInt(4);
      final int k = 1 + random.nextInt(Math.min(2, hosts - 1));
      if (hosts * sites % (k + 1) != 0) {
        continue; // not a valid configuration
      }
      PartitionMap map = Placement.of(hosts, sites, k);
      for (int p = 0; p < map.partitionCount(); p++) {
        final List<Integer> copies = map.replicas(p).replicaHosts();
        map = led(map, p, copies.get(random.nextInt(copies.size())));
      }
      final List<LeaderBalance.Move> moves = LeaderBalance.plan(map, hosts);
      final int[] counts = counts(map, hosts, moves);
      final Set<Integer> moved = new HashSet<>();
      moves.forEach(m -> moved.add(m.partition()));
      final int[] leaders = new int[map.partitionCount()];
      for (int p = 0; p < leaders.length; p++) {
        leaders[p] = map.leaderOf(p);
      }
      for (LeaderBalance.Move m : moves) {
        leaders[m.partition()] = m.to();
      }
      for (int p = 0; p < leaders.length; p++) {
        if (moved.contains(p)) {
          continue;
        }
        for (int to : map.replicas(p).replicaHosts()) {
          assertTrue(counts[leaders[p]] - counts[to] < 2, "round " + round + ": partition " + p + " could still "
              + "move from host " + leaders[p] + " to host " + to + ": " + asList(counts));
        }
      }
    }
  }

  private static List<Integer> asList(int[] values) {
    final List<Integer> out = new ArrayList<>();
    for (int v : values) {
      out.add(v);
    }
    return out;
  }
}
