package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.proto.Topology;
import org.partita.proto.cluster.ChangeLeader;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostServing;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MarkDead;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.RegisterHost;
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

  static MetadataCommand register(int hostId, long incarnation, int schema, String configuration) {
    return MetadataCommand.newBuilder().setRegisterHost(RegisterHost.newBuilder()
        .setHost(HostRecord.newBuilder().setHostId(hostId).setIncarnation(incarnation)
            .setClientAddress("127.0.0." + (hostId + 1) + ":21212")
            .setInternalAddress("127.0.0." + (hostId + 1) + ":21215"))
        .setSchemaFingerprint(schema).setConfiguration(configuration).setHostCount(3)).build();
  }

  static MetadataCommand markDead(int hostId, long incarnation) {
    return MetadataCommand.newBuilder().setMarkDead(MarkDead.newBuilder().setHostId(hostId)
        .setIncarnation(incarnation)).build();
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

  @Test
  void shouldRegisterHostsAsUpAndRememberTheFirstSchemaAndConfiguration() {
    assertTrue(apply(register(0, 11, 0xabc, "three")).getApplied());
    final MetadataReply second = apply(register(2, 12, 0xabc, "three"));
    assertTrue(second.getApplied(), second.getRefusal());
    assertEquals(List.of(0, 2), second.getState().getHostsList().stream().map(HostRecord::getHostId).toList());
    assertEquals(HostState.HOST_STATE_UP, second.getState().getHosts(1).getState());
    assertEquals("127.0.0.3:21215", second.getState().getHosts(1).getInternalAddress());
    assertEquals(0xabc, second.getState().getSchemaFingerprint());
    assertEquals("three", second.getState().getConfiguration());
    assertEquals(7, second.getState().getAppliedIndex());
    // The same incarnation again (a retried send) changes nothing and is not an error.
    assertTrue(apply(register(2, 12, 0xabc, "three")).getApplied());
  }

  @Test
  void shouldRefuseASecondProcessWithTheSameHostId() {
    apply(register(1, 11, 0xabc, "three"));
    final MetadataReply duplicate = apply(register(1, 99, 0xabc, "three"));
    assertFalse(duplicate.getApplied());
    assertEquals("RegisterHost for host 1: host id 1 is already registered and up (incarnation 11, internal "
        + "address 127.0.0.2:21215): two processes were started with --host-id 1 (a whole cluster restarting on its"
        + " data directories starts every host with --recover)", duplicate.getRefusal());
    assertEquals(11, duplicate.getState().getHosts(0).getIncarnation());
  }

  @Test
  void shouldRefuseAMismatchedSchemaOrConfiguration() {
    apply(register(0, 11, 0xabc, "three"));
    assertEquals("RegisterHost for host 1: its schema (fingerprint 00000def) differs from the cluster's "
        + "(fingerprint 00000abc): every host needs the same --schema and --classes",
        apply(register(1, 12, 0xdef, "three")).getRefusal());
    assertEquals("RegisterHost for host 1: its cluster configuration (four) differs from the cluster's (three): "
        + "every host needs the same --cluster, --kfactor and --sites-per-host",
        apply(register(1, 12, 0xabc, "four")).getRefusal());
    assertEquals(1, state.snapshot().getHostsCount());
  }

  @Test
  void shouldRefuseMalformedRegistrations() {
    assertEquals("RegisterHost for host 3: the host id is not below the host count 3",
        apply(register(3, 12, 0xabc, "three")).getRefusal());
    assertEquals("RegisterHost for host 0: incarnation 0 is not a valid incarnation",
        apply(register(0, 0, 0xabc, "three")).getRefusal());
    assertEquals("RegisterHost without a host", apply(MetadataCommand.newBuilder()
        .setRegisterHost(RegisterHost.getDefaultInstance()).build()).getRefusal());
  }

  @Test
  void shouldMarkAnIncarnationDeadOnceAndRefuseItsReturn() {
    apply(register(1, 11, 0xabc, "three"));
    assertEquals("MarkDead for host 1 expected incarnation 10, current is 11", apply(markDead(1, 10)).getRefusal());
    assertEquals("MarkDead for host 2: no such host is registered", apply(markDead(2, 11)).getRefusal());
    final MetadataReply dead = apply(markDead(1, 11));
    assertTrue(dead.getApplied(), dead.getRefusal());
    assertEquals(HostState.HOST_STATE_DEAD, dead.getState().getHosts(0).getState());
    assertEquals("MarkDead for host 1: incarnation 11 is already dead", apply(markDead(1, 11)).getRefusal());
    assertTrue(apply(register(1, 12, 0xabc, "three")).getRefusal().contains("the host was declared dead"));
  }

  @Test
  void shouldMoveTheDeadHostsPartitionsToTheirSurvivorsInANewEpoch() {
    apply(register(1, 11, 0xabc, "three"));
    apply(install(0, threeHostMap()));
    final MetadataReply dead = apply(markDead(1, 11));
    assertTrue(dead.getApplied(), dead.getRefusal());
    assertEquals(2, state.version(), "one map change for the whole failover");
    // Partition 0 ({0,1}, led by 0) loses its replica; 1 ({2,0}) is untouched; 2 ({1,2}, led by 1) moves to 2.
    assertEquals(new PartitionMap.Replicas(0, 0, List.of(0), 2), state.map().replicas(0));
    assertEquals(new PartitionMap.Replicas(1, 2, List.of(2, 0), 1), state.map().replicas(1));
    assertEquals(new PartitionMap.Replicas(2, 2, List.of(2), 2), state.map().replicas(2));
    assertEquals(2, dead.getMap().getTopologyVersion());
    // The epoch moved: a ChangeLeader built from the old one is refused.
    assertEquals("ChangeLeader for partition 2 expected epoch 1, current is 2",
        apply(changeLeader(2, 1, 1, List.of(1, 2))).getRefusal());
  }

  @Test
  void shouldKeepAPartitionWhoseOnlyCopyDied() {
    final PartitionMap single = PartitionMap.singleHost(2, 0);
    assertSame(single, MetadataState.withoutHost(single, 0), "nowhere to move: the map does not change");
    assertSame(single, MetadataState.withoutHost(single, 1), "no copy on host 1");
  }

  @Test
  void shouldRestoreEverythingFromASnapshot() {
    apply(register(0, 11, 0xabc, "three"));
    apply(install(0, threeHostMap()));
    apply(changeLeader(0, 1, 1, List.of(1)));
    final MetadataSnapshot saved = state.snapshot();

    final MetadataState restored = new MetadataState();
    restored.restore(saved);
    assertEquals(saved, restored.snapshot());
    assertEquals(2, restored.version());
    assertEquals(1, restored.map().leaderOf(0));
    // The restored state goes on with the same rules.
    assertEquals("ChangeLeader for partition 0 expected epoch 1, current is 2",
        restored.apply(changeLeader(0, 1, 0, List.of(0)).toByteArray(), 8).getRefusal());
    assertFalse(restored.apply(register(0, 99, 0xabc, "three").toByteArray(), 9).getApplied());
  }

  @Test
  void shouldRecordThatARegisteredHostServes() {
    apply(register(1, 11, 0xabc, "three"));
    final MetadataCommand serving = MetadataCommand.newBuilder().setHostServing(HostServing.newBuilder()
        .setHostId(1).setIncarnation(11).setClientAddress("127.0.0.2:40001").setHttpAddress("127.0.0.2:40002"))
        .build();
    final MetadataReply reply = apply(serving);
    assertTrue(reply.getApplied(), reply.getRefusal());
    assertTrue(reply.getState().getHosts(0).getServing());
    assertEquals("127.0.0.2:40001", reply.getState().getHosts(0).getClientAddress());
    assertEquals("HostServing for host 1: incarnation 12 is not registered", apply(serving.toBuilder()
        .setHostServing(serving.getHostServing().toBuilder().setIncarnation(12)).build()).getRefusal());
    apply(markDead(1, 11));
    assertEquals("HostServing for host 1: incarnation 11 was declared dead", apply(serving).getRefusal());
  }

  static MetadataCommand rejoin(int hostId, long incarnation) {
    final MetadataCommand registration = register(hostId, incarnation, 0xabc, "three");
    return registration.toBuilder().setRegisterHost(registration.getRegisterHost().toBuilder().setRejoin(true))
        .build();
  }

  static MetadataCommand addReplica(int partition, long expectedEpoch, int hostId, long incarnation) {
    return MetadataCommand.newBuilder().setAddReplica(org.partita.proto.cluster.AddReplica.newBuilder()
        .setPartition(partition).setExpectedEpoch(expectedEpoch).setHostId(hostId).setIncarnation(incarnation))
        .build();
  }

  @Test
  void shouldLetADeadHostRejoinWithANewerIncarnationHoldingNoCopy() {
    apply(register(0, 10, 0xabc, "three"));
    apply(register(1, 11, 0xabc, "three"));
    apply(install(0, threeHostMap()));
    apply(markDead(1, 11));
    assertEquals("RegisterHost for host 2: a rejoin, but the cluster has never registered host 2: start it "
        + "without --rejoin to form the cluster", apply(rejoin(2, 30)).getRefusal());
    final MetadataReply back = apply(rejoin(1, 21));
    assertTrue(back.getApplied(), back.getRefusal());
    final HostRecord record = back.getState().getHosts(1);
    assertEquals(21, record.getIncarnation());
    assertEquals(HostState.HOST_STATE_UP, record.getState());
    assertFalse(record.getServing(), "serving again only once it says so");
    assertEquals(2, state.version(), "a rejoin changes no copy: the map stays");
    assertFalse(state.map().replicas(0).replicaHosts().contains(1));
    assertTrue(apply(rejoin(1, 21)).getApplied(), "the same registration sent again is a no-op");
    assertTrue(apply(rejoin(1, 22)).getRefusal().contains("already registered and up"),
        "a second process with the same id while the first is up");
    assertTrue(apply(markDead(1, 21)).getApplied(), "the new incarnation can die in its turn");
  }

  @Test
  void shouldAddARejoinedHostAsACopyInTheNextEpoch() {
    apply(register(0, 10, 0xabc, "three"));
    apply(register(1, 11, 0xabc, "three"));
    apply(register(2, 12, 0xabc, "three"));
    apply(install(0, threeHostMap()));
    apply(markDead(1, 11));
    // Partition 0 is {0} in epoch 2 now, partition 2 {2} in epoch 2.
    assertEquals("AddReplica of host 1 to partition 0: incarnation 11 of the host is not registered and up",
        apply(addReplica(0, 2, 1, 11)).getRefusal());
    apply(rejoin(1, 21));
    assertEquals("AddReplica of host 1 to partition 0 expected epoch 1, current is 2",
        apply(addReplica(0, 1, 1, 21)).getRefusal());
    assertEquals("AddReplica of host 1 to partition 0: incarnation 20 of the host is not registered and up",
        apply(addReplica(0, 2, 1, 20)).getRefusal());
    assertEquals("AddReplica of host 0 to partition 0: the host already holds a copy (hosts [0])",
        apply(addReplica(0, 2, 0, 10)).getRefusal());
    assertEquals("AddReplica of host 1 to partition 5: the partition does not exist (the map has 3)",
        apply(addReplica(5, 2, 1, 21)).getRefusal());
    final MetadataReply added = apply(addReplica(0, 2, 1, 21));
    assertTrue(added.getApplied(), added.getRefusal());
    assertEquals(new PartitionMap.Replicas(0, 0, List.of(0, 1), 3), state.map().replicas(0), "the leader stays");
    assertEquals(new PartitionMap.Replicas(2, 2, List.of(2), 2), state.map().replicas(2), "others untouched");
    assertEquals(3, state.version());
    assertEquals("AddReplica of host 1 to partition 0 expected epoch 2, current is 3",
        apply(addReplica(0, 2, 1, 21)).getRefusal(), "sent again: refused by the epoch");
    assertTrue(apply(addReplica(2, 2, 1, 21)).getApplied());
    assertTrue(apply(addReplica(1, 1, 1, 21)).getApplied(), "a third copy while the cluster has three hosts");
    assertEquals(List.of(2, 0, 1), state.map().replicas(1).replicaHosts());
  }
}
