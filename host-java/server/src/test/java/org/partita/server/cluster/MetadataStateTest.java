package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.proto.Topology;
import org.partita.proto.cluster.ChangeLeader;
import org.partita.proto.cluster.InstallMap;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.server.topology.PartitionMap;

/** The metadata's compare-and-set rules, without Ratis. */
class MetadataStateTest {
  /** Three partitions on hosts 0..2, two copies each, one leader per host. */
  static Topology threeHostMap() {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    return PartitionMap.of(1, buckets, List.of(
        new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
        new PartitionMap.Replicas(1, 2, List.of(2, 0), 1),
        new PartitionMap.Replicas(2, 1, List.of(1, 2), 1))).fill(Topology.newBuilder()).build();
  }

  static MetadataCommand install(long expectedVersion, Topology map) {
    return MetadataCommand.newBuilder()
        .setInstallMap(InstallMap.newBuilder().setExpectedVersion(expectedVersion).setMap(map)).build();
  }

  static MetadataCommand changeLeader(int partition, long expectedEpoch, int leader, List<Integer> replicas) {
    return MetadataCommand.newBuilder().setChangeLeader(ChangeLeader.newBuilder().setPartition(partition)
        .setExpectedEpoch(expectedEpoch).setLeaderHostId(leader).addAllReplicaHostIds(replicas)).build();
  }

  private final MetadataState state = new MetadataState();

  private MetadataReply apply(MetadataCommand command) {
    return state.apply(command.toByteArray(), 7);
  }

  @Test
  void shouldInstallTheFirstMapAtVersionOne() {
    final MetadataReply reply = apply(install(0, threeHostMap()));
    assertTrue(reply.getApplied(), reply.getRefusal());
    assertEquals(1, state.version());
    assertEquals(2, state.map().leaderOf(1));
    assertEquals(List.of(1, 2), state.map().replicas(2).replicaHosts());
    assertEquals(2, state.map().partitionOfBucket(16_382));
    assertEquals(1, reply.getMap().getTopologyVersion());
  }

  @Test
  void shouldRefuseAnInstallFromAStaleVersion() {
    apply(install(0, threeHostMap()));
    final MetadataReply reply = apply(install(0, threeHostMap()));
    assertFalse(reply.getApplied());
    assertEquals("InstallMap expected map version 0, current is 1", reply.getRefusal());
    assertEquals(1, state.version());
  }

  @Test
  void shouldMovePartitionToNextEpochOnChangeLeader() {
    apply(install(0, threeHostMap()));
    final MetadataReply reply = apply(changeLeader(0, 1, 1, List.of(1)));
    assertTrue(reply.getApplied(), reply.getRefusal());
    assertEquals(2, state.version());
    final PartitionMap.Replicas moved = state.map().replicas(0);
    assertEquals(1, moved.leaderHost());
    assertEquals(List.of(1), moved.replicaHosts());
    assertEquals(2, moved.epoch());
    assertEquals(state.map().replicas(1).epoch(), 1, "other partitions keep their epoch");
    assertEquals(0, state.map().partitionOfBucket(3), "the bucket table is unchanged");
  }

  @Test
  void shouldRefuseChangeLeaderFromAStaleEpoch() {
    apply(install(0, threeHostMap()));
    apply(changeLeader(0, 1, 1, List.of(1)));
    final MetadataReply reply = apply(changeLeader(0, 1, 0, List.of(0)));
    assertFalse(reply.getApplied());
    assertEquals("ChangeLeader for partition 0 expected epoch 1, current is 2", reply.getRefusal());
    assertEquals(1, state.map().leaderOf(0));
  }

  @Test
  void shouldRefuseBadReplicaSets() {
    apply(install(0, threeHostMap()));
    assertEquals("ChangeLeader for partition 1: the leader 1 is not in the replica set [2, 0]",
        apply(changeLeader(1, 1, 1, List.of(2, 0))).getRefusal());
    assertEquals("ChangeLeader for partition 1: the replica set [2, 2] names a host twice",
        apply(changeLeader(1, 1, 2, List.of(2, 2))).getRefusal());
    assertEquals("ChangeLeader for partition 1: the replica set is empty",
        apply(changeLeader(1, 1, 2, List.of())).getRefusal());
    assertEquals("ChangeLeader: partition 3 does not exist (the map has 3)",
        apply(changeLeader(3, 1, 2, List.of(2))).getRefusal());
    assertEquals(1, state.version());
  }

  @Test
  void shouldRefuseChangeLeaderBeforeAnyMap() {
    final MetadataReply reply = apply(changeLeader(0, 1, 0, List.of(0)));
    assertEquals("ChangeLeader for partition 0: no partition map installed", reply.getRefusal());
    assertFalse(reply.hasMap());
    assertNull(state.map());
  }

  @Test
  void shouldRefuseAnInvalidMap() {
    final Topology noBuckets = threeHostMap().toBuilder().clearBucketPartitions().build();
    assertEquals("InstallMap: the bucket table needs 16384 entries, got 0",
        apply(install(0, noBuckets)).getRefusal());
    final Topology leaderOutside = threeHostMap().toBuilder()
        .setPartitions(1, threeHostMap().getPartitions(1).toBuilder().setLeaderHostId(1)).build();
    assertEquals("InstallMap: partition 1: the leader 1 is not in the replica set [2, 0]",
        apply(install(0, leaderOutside)).getRefusal());
    assertEquals(0, state.version());
  }

  @Test
  void shouldRefuseMalformedAndEmptyCommandsWithoutThrowing() {
    final MetadataReply malformed = state.apply(new byte[] {(byte) 0x0a, (byte) 0xff}, 42);
    assertFalse(malformed.getApplied());
    assertTrue(malformed.getRefusal().startsWith("malformed metadata command at log index 42: "),
        malformed.getRefusal());
    assertEquals("empty metadata command at log index 9", state.apply(new byte[0], 9).getRefusal());
  }
}
