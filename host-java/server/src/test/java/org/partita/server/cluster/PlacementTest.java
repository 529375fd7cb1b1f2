package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.server.topology.PartitionMap;

/** The formation placement: distinct hosts per partition, even copies and leaders, clear refusals. */
class PlacementTest {
  @Test
  void shouldPlaceThreeHostsTwoSitesKOneWithOneLeaderPerHost() {
    final PartitionMap map = Placement.of(3, 2, 1);
    assertEquals(3, map.partitionCount());
    assertEquals(List.of(0, 1), map.replicas(0).replicaHosts());
    assertEquals(List.of(2, 0), map.replicas(1).replicaHosts());
    assertEquals(List.of(1, 2), map.replicas(2).replicaHosts());
    assertEquals(List.of(0, 2, 1), List.of(map.leaderOf(0), map.leaderOf(1), map.leaderOf(2)));
    assertEquals(1, map.version());
    assertEquals(1, map.replicas(2).epoch());
    assertEquals(2, map.partitionOfBucket(5));
  }

  @Test
  void shouldSpreadLeadersWhereRoundRobinAloneWouldNot() {
    // Copies of 4 hosts x 2 sites, K=1 pair up as {0,1},{2,3},{0,1},{2,3}: the
    // first copy would always be host 0 or 2.
    final PartitionMap map = Placement.of(4, 2, 1);
    assertEquals(List.of(0, 2, 1, 3), List.of(map.leaderOf(0), map.leaderOf(1), map.leaderOf(2), map.leaderOf(3)));
  }

  @Test
  void shouldKeepCopiesDistinctAndEvenForEveryValidConfiguration() {
    for (int hosts = 1; hosts <= 12; hosts++) {
      for (int sites = 1; sites <= 4; sites++) {
        for (int k = 0; k <= 2 && k < hosts; k++) {
          if (hosts * sites % (k + 1) == 0) {
            checkEven(Placement.of(hosts, sites, k), hosts, sites, k);
          }
        }
      }
    }
  }

  private static void checkEven(PartitionMap map, int hosts, int sites, int k) {
    final String config = hosts + " hosts, " + sites + " sites, K=" + k;
    final int[] copies = new int[hosts];
    final int[] leaders = new int[hosts];
    for (int p = 0; p < map.partitionCount(); p++) {
      final PartitionMap.Replicas r = map.replicas(p);
      assertEquals(k + 1, new HashSet<>(r.replicaHosts()).size(), config + ": partition " + p);
      assertTrue(r.replicaHosts().contains(r.leaderHost()), config + ": partition " + p);
      r.replicaHosts().forEach(h -> copies[h]++);
      leaders[r.leaderHost()]++;
    }
    for (int h = 0; h < hosts; h++) {
      assertEquals(sites, copies[h], config + ": copies on host " + h);
    }
    final int most = java.util.Arrays.stream(leaders).max().orElseThrow();
    final int least = java.util.Arrays.stream(leaders).min().orElseThrow();
    assertTrue(most - least <= 1, config + ": leaders per host " + java.util.Arrays.toString(leaders));
  }

  @Test
  void shouldRefuseConfigurationsThatCannotBePlaced() {
    assertEquals("K=2 needs 3 distinct hosts per partition, but the cluster has 2",
        assertThrows(IllegalArgumentException.class, () -> Placement.of(2, 4, 2)).getMessage());
    assertEquals("3 hosts x 1 sites = 3 copies, not a multiple of K+1 = 2; change the sites per host or the host count",
        assertThrows(IllegalArgumentException.class, () -> Placement.of(3, 1, 1)).getMessage());
    assertEquals("placement needs hosts >= 1, sites per host >= 1 and K >= 0, got hosts 3, sites per host 0, K 1",
        assertThrows(IllegalArgumentException.class, () -> Placement.of(3, 0, 1)).getMessage());
  }
}
