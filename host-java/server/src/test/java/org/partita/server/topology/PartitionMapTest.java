package org.partita.server.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.PartitionHash;
import org.partita.client.proto.Topology;

class PartitionMapTest {
  @Test
  void shouldPlaceKeysAsTheDefaultTableOfOneHost() {
    final PartitionMap map = PartitionMap.singleHost(4, 0);
    assertEquals(4, map.partitionCount());
    assertEquals(PartitionHash.partition(6175551234L, 4), map.partitionOf(6175551234L));
    assertEquals(PartitionHash.partition("key", 4), map.partitionOf("key"));
    assertEquals(0, map.partitionOf(null));
    assertEquals(0, map.leaderOf(3));
    assertEquals(1, map.replicas(2).epoch());
  }

  @Test
  void shouldPlaceALongUnboxedWhereItsBoxPlacesIt() {
    final PartitionMap map = PartitionMap.singleHost(5, 0);
    for (long key : new long[] {0, 1, -1, 6175551234L, Long.MIN_VALUE, Long.MAX_VALUE}) {
      assertEquals(map.partitionOf(key), map.partitionOfLong(key), "key " + key);
    }
  }

  @Test
  void shouldPlaceKeysThroughAnExplicitTable() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    Arrays.fill(buckets, 1);
    final List<PartitionMap.Replicas> two = List.of(new PartitionMap.Replicas(0, 0, List.of(0, 1), 3),
        new PartitionMap.Replicas(1, 1, List.of(1, 0), 2));
    final PartitionMap map = PartitionMap.of(9, buckets, two);
    assertEquals(1, map.partitionOf(6175551234L));
    assertEquals(0, map.partitionOf(null), "NULL goes to partition 0 whatever the table says");
    final Topology topology = map.fill(Topology.newBuilder()).build();
    assertEquals(9, topology.getTopologyVersion());
    assertEquals(PartitionMap.BUCKETS, topology.getBucketPartitionsCount());
    assertEquals(List.of(0, 1), topology.getPartitionLeadersList());
    assertEquals(List.of(1, 0), topology.getPartitions(1).getReplicaHostIdsList());
    assertEquals(2, topology.getPartitions(1).getEpoch());
    assertEquals(List.of(0, 1), map.partitionsHeldBy(1), "leader or replica");
    assertEquals(List.of(), map.partitionsHeldBy(2));
  }

  @Test
  void shouldRefuseATableThatNamesAMissingPartition() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    buckets[100] = 2;
    assertThrows(IllegalArgumentException.class, () -> PartitionMap.of(1, buckets,
        List.of(new PartitionMap.Replicas(0, 0, List.of(0), 1), new PartitionMap.Replicas(1, 0, List.of(0), 1))));
    assertThrows(IllegalArgumentException.class, () -> PartitionMap.singleHost(0, 0));
  }
}
