package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.partita.client.proto.Topology;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.sysproc.ClusterStatus;
import org.partita.server.topology.PartitionMap;

class ClusterHistoryTest {
  private final AtomicLong wallClock = new AtomicLong(1_795_341_600_000L);
  private final ClusterHistory history = new ClusterHistory(0, 1, 2, wallClock::get);

  private static HostRecord host(int id, long incarnation, HostState state, boolean serving) {
    return HostRecord.newBuilder().setHostId(id).setIncarnation(incarnation).setState(state).setServing(serving)
        .setClientAddress("127.0.0." + (id + 1) + ":21212").setHttpAddress("127.0.0." + (id + 1) + ":8080").build();
  }

  /** Three hosts, 3 partitions of 2 copies each (the placement of 3 hosts, 2 sites, K = 1). */
  private static Topology map(long version, PartitionMap.Replicas... partitions) {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % partitions.length;
    }
    return PartitionMap.of(version, buckets, List.of(partitions)).fill(Topology.newBuilder()).build();
  }

  private static MetadataSnapshot state(long index, Topology map, HostRecord... hosts) {
    return MetadataSnapshot.newBuilder().setAppliedIndex(index).setHostCount(3).setMap(map)
        .addAllHosts(List.of(hosts)).build();
  }

  private static final Topology FORMED = map(1, new PartitionMap.Replicas(0, 0, List.of(0, 1), 1),
      new PartitionMap.Replicas(1, 1, List.of(1, 2), 1), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1));
  private static final Topology AFTER_HOST_1 = map(2, new PartitionMap.Replicas(0, 0, List.of(0), 2),
      new PartitionMap.Replicas(1, 2, List.of(2), 2), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1));

  @Test
  void shouldRecordAHostDeclaredDeadAndWhereItsPartitionsWent() {
    history.observe(state(10, FORMED, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(List.of(), history.status().changes(), "the first metadata seen is the start, not a change");
    wallClock.addAndGet(4_000);
    history.observe(state(12, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_DEAD, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    final ClusterStatus status = history.status();
    assertEquals(List.of(
        new ClusterStatus.Change(1_795_341_604_000L, 12, 2, "HOST_DEAD", 1, -1, "host 1 declared dead (incarnation 6)"),
        new ClusterStatus.Change(1_795_341_604_000L, 12, 2, "REPLICAS", 0, 0,
            "partition 0: copies on 0,1 -> 0 (leader host 0), epoch 2"),
        new ClusterStatus.Change(1_795_341_604_000L, 12, 2, "NEW_LEADER", 2, 1,
            "partition 1: leader host 1 -> host 2, copies on 2, epoch 2")), status.changes());
    assertEquals(List.of(ClusterStatus.HostState.SERVING, ClusterStatus.HostState.DEAD,
        ClusterStatus.HostState.SERVING), status.hosts().stream().map(ClusterStatus.Host::state).toList());
    assertEquals(2, status.map().leaderOf(1));
    assertEquals(12, status.metadataIndex());
  }

  @Test
  void shouldShowARejoiningHostUntilItHoldsItsCopiesAndRecordEachCopyAndTheEnd() {
    history.observe(state(12, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_DEAD, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    wallClock.addAndGet(1_000);
    history.observe(state(13, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_UP, false), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(ClusterStatus.HostState.STARTING, history.status().hosts().get(1).state(), "not serving yet");
    history.observe(state(14, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(List.of(ClusterStatus.HostState.SERVING, ClusterStatus.HostState.REJOINING,
        ClusterStatus.HostState.SERVING), history.status().hosts().stream().map(ClusterStatus.Host::state).toList());
    wallClock.addAndGet(2_000);
    final Topology oneBack = map(3, new PartitionMap.Replicas(0, 0, List.of(0), 2),
        new PartitionMap.Replicas(1, 2, List.of(2, 1), 3), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1));
    history.observe(state(15, oneBack, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(ClusterStatus.HostState.REJOINING, history.status().hosts().get(1).state(), "one copy of two back");
    wallClock.addAndGet(1_500);
    final Topology bothBack = map(4, new PartitionMap.Replicas(0, 0, List.of(0, 1), 3),
        new PartitionMap.Replicas(1, 2, List.of(2, 1), 3), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1));
    history.observe(state(16, bothBack, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    final ClusterStatus status = history.status();
    assertEquals(List.of(ClusterStatus.HostState.SERVING, ClusterStatus.HostState.SERVING,
        ClusterStatus.HostState.SERVING), status.hosts().stream().map(ClusterStatus.Host::state).toList());
    assertEquals(List.of(
        new ClusterStatus.Change(1_795_341_601_000L, 13, 2, "HOST_UP", 1, -1, "host 1 registered again (incarnation 60)"),
        new ClusterStatus.Change(1_795_341_603_000L, 15, 3, "COPY_ADDED", 1, 1,
            "partition 1: host 1 rejoined as a copy, copies on 2 -> 2,1 (leader host 2), epoch 3"),
        new ClusterStatus.Change(1_795_341_604_500L, 16, 4, "HOST_REJOINED", 1, -1,
            "host 1 rejoined: it holds copies of partitions 0, 1, 3.5 s after it registered again"),
        new ClusterStatus.Change(1_795_341_604_500L, 16, 4, "COPY_ADDED", 1, 0,
            "partition 0: host 1 rejoined as a copy, copies on 0 -> 0,1 (leader host 0), epoch 3")),
        status.changes());
  }

  @Test
  void shouldCallANewEpochWithTheSameCopiesNoCopyAdded() {
    history.observe(state(10, FORMED, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    final Topology sameCopiesNewEpoch = map(2, new PartitionMap.Replicas(0, 0, List.of(0, 1), 2),
        new PartitionMap.Replicas(1, 1, List.of(1, 2), 1), new PartitionMap.Replicas(2, 2, List.of(2, 0), 1));
    history.observe(state(11, sameCopiesNewEpoch, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(List.of(new ClusterStatus.Change(1_795_341_600_000L, 11, 2, "REPLICAS", 0, 0,
        "partition 0: copies on 0,1 -> 0,1 (leader host 0), epoch 2")), history.status().changes());
  }

  @Test
  void shouldNotCallAHostDeclaredDeadWhileRejoiningRejoined() {
    history.observe(state(12, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_UP, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(ClusterStatus.HostState.REJOINING, history.status().hosts().get(1).state());
    history.observe(state(13, AFTER_HOST_1, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 60, HostState.HOST_STATE_DEAD, true), host(2, 7, HostState.HOST_STATE_UP, true)));
    assertEquals(List.of("HOST_DEAD"), history.status().changes().stream().map(ClusterStatus.Change::kind).toList());
    assertEquals(ClusterStatus.HostState.DEAD, history.status().hosts().get(1).state());
  }

  @Test
  void shouldIgnoreOlderMetadataOfferedLateAndListHostsNotRegisteredYet() {
    history.observe(state(10, FORMED, host(0, 5, HostState.HOST_STATE_UP, true),
        host(1, 6, HostState.HOST_STATE_UP, false)));
    history.observe(state(9, AFTER_HOST_1, host(1, 6, HostState.HOST_STATE_DEAD, false)));
    final ClusterStatus status = history.status();
    assertEquals(List.of(), status.changes());
    assertEquals(10, status.metadataIndex());
    assertEquals(List.of(ClusterStatus.HostState.SERVING, ClusterStatus.HostState.STARTING,
        ClusterStatus.HostState.UNKNOWN), status.hosts().stream().map(ClusterStatus.Host::state).toList());
    assertEquals("", status.hosts().get(2).clientAddress());
  }

  @Test
  void shouldRecordAHostRegisteredAgainAndKeepOnlyTheLastChanges() {
    history.observe(state(1, FORMED, host(1, 6, HostState.HOST_STATE_UP, true)));
    history.observe(state(2, FORMED, host(1, 60, HostState.HOST_STATE_UP, true)));
    assertEquals("host 1 registered again (incarnation 60)", history.status().changes().get(0).description());
    for (int i = 0; i < ClusterHistory.MAX_CHANGES + 5; i++) {
      history.observe(state(3 + 2 * i, FORMED, host(1, 60, HostState.HOST_STATE_DEAD, true)));
      history.observe(state(4 + 2 * i, FORMED, host(1, 61 + i, HostState.HOST_STATE_UP, true)));
    }
    final List<ClusterStatus.Change> changes = history.status().changes();
    assertEquals(ClusterHistory.MAX_CHANGES, changes.size());
    assertEquals("host 1 registered again (incarnation " + (61 + ClusterHistory.MAX_CHANGES + 4) + ")",
        changes.get(changes.size() - 1).description(), "the newest last");
  }
}
