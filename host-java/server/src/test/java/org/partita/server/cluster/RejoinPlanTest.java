package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.HostServing;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;

/** Which copies a rejoined host is given, from the metadata alone (docs/cluster.md, "Rejoin"). */
class RejoinPlanTest {
  private final MetadataState state = new MetadataState();
  private long index;

  private MetadataReply apply(MetadataCommand command) {
    final MetadataReply reply = state.apply(command.toByteArray(), ++index);
    assertTrue(reply.getApplied(), reply.getRefusal());
    return reply;
  }

  private static MetadataCommand serving(int hostId, long incarnation) {
    return MetadataCommand.newBuilder().setHostServing(HostServing.newBuilder().setHostId(hostId)
        .setIncarnation(incarnation).setClientAddress("127.0.0." + (hostId + 1) + ":21212")).build();
  }

  private MetadataSnapshot formed() {
    for (int h = 0; h < 3; h++) {
      apply(MetadataStateTest.register(h, 10 + h, 0xabc, "three"));
    }
    apply(MetadataStateTest.install(0, MetadataStateTest.threeHostMap()));
    for (int h = 0; h < 3; h++) {
      apply(serving(h, 10 + h));
    }
    return state.snapshot();
  }

  @Test
  void shouldPlanNothingForAFullCluster() {
    assertNull(RejoinPlan.next(formed(), 1, 2));
    assertNull(RejoinPlan.next(MetadataSnapshot.getDefaultInstance(), 1, 2), "no map yet");
  }

  @Test
  void shouldNotPileTheDeadHostsCopiesOntoTheSurvivors() {
    formed();
    apply(MetadataStateTest.markDead(1, 11));
    assertNull(RejoinPlan.next(state.snapshot(), 1, 2), "partitions 0 and 2 are short, but hosts 0 and 2 hold two each");
  }

  @Test
  void shouldGiveARejoinedHostEveryShortPartitionOnceItServes() {
    formed();
    apply(MetadataStateTest.markDead(1, 11));
    apply(MetadataStateTest.rejoin(1, 21));
    assertNull(RejoinPlan.next(state.snapshot(), 1, 2), "registered but not serving yet");
    assertEquals(List.of(), RejoinPlan.joiningHosts(state.snapshot(), 1, 2), "registered but not serving yet");
    apply(serving(1, 21));
    assertEquals(List.of(1), RejoinPlan.joiningHosts(state.snapshot(), 1, 2));
    assertEquals(new RejoinPlan(1, 21, List.of(0, 2)), RejoinPlan.next(state.snapshot(), 1, 2));
    apply(MetadataStateTest.addReplica(0, 2, 1, 21));
    final RejoinPlan rest = RejoinPlan.next(state.snapshot(), 1, 2);
    assertEquals(new RejoinPlan(1, 21, List.of(2)), rest);
    assertTrue(rest.gives(2));
    assertFalse(rest.gives(0));
    assertEquals(List.of(1), RejoinPlan.joiningHosts(state.snapshot(), 1, 2), "one copy of two back");
    apply(MetadataStateTest.addReplica(2, 2, 1, 21));
    assertNull(RejoinPlan.next(state.snapshot(), 1, 2), "every partition has K+1 copies again");
    assertEquals(List.of(), RejoinPlan.joiningHosts(state.snapshot(), 1, 2), "host 1 has rejoined");
    assertNull(RejoinPlan.next(state.snapshot(), 0, 2), "with K = 0 nothing is ever short");
  }

  @Test
  void shouldServeOneReturningHostAtATime() {
    formed();
    apply(MetadataStateTest.markDead(1, 11));
    apply(MetadataStateTest.rejoin(1, 21));
    apply(serving(1, 21));
    apply(MetadataStateTest.addReplica(0, 2, 1, 21));
    apply(MetadataStateTest.markDead(2, 12));
    // Partition 1 ({2,0}) is {0} now, partition 2 ({2}, then host 1 never got it) lost its only copy:
    // host 2 cannot come back.
    assertEquals("RegisterHost for host 2: the host held the only copy of partition(s) [2] when it died, so their "
        + "data is lost and no host can give it back by rejoin",
        state.apply(MetadataStateTest.rejoin(2, 22).toByteArray(), ++index).getRefusal());
    assertEquals(new RejoinPlan(1, 21, List.of(1)), RejoinPlan.next(state.snapshot(), 1, 2),
        "host 1 holds one copy against host 0's two");
    assertEquals(List.of(1), RejoinPlan.joiningHosts(state.snapshot(), 1, 2));
  }

  /** Five hosts, K = 2, three sites each, formed with the placement's map (partitions 0-4). */
  private void formedFiveHosts() {
    for (int h = 0; h < 5; h++) {
      final MetadataCommand registration = MetadataStateTest.register(h, 10 + h, 0xabc, "five");
      apply(registration.toBuilder().setRegisterHost(registration.getRegisterHost().toBuilder().setHostCount(5))
          .build());
    }
    apply(MetadataStateTest.install(0, Placement.of(5, 3, 2).fill(org.partita.client.proto.Topology.newBuilder())
        .build()));
    for (int h = 0; h < 5; h++) {
      apply(serving(h, 10 + h));
    }
  }

  private void rejoined(int host, long incarnation) {
    final MetadataCommand registration = MetadataStateTest.register(host, incarnation, 0xabc, "five");
    apply(registration.toBuilder().setRegisterHost(registration.getRegisterHost().toBuilder().setHostCount(5)
        .setRejoin(true)).build());
    apply(serving(host, incarnation));
  }

  private void added(RejoinPlan plan) {
    for (int p : plan.partitions()) {
      apply(MetadataStateTest.addReplica(p, state.map().replicas(p).epoch(), plan.hostId(), plan.incarnation()));
    }
  }

  /**
   * Found by the fault harness (bank, rejoin and kill, 5 hosts, K = 2, seed 3): hosts 0 and 1 killed, host 0
   * back first was given every short partition, four for its three sites; it took 0, 1 and 2 (host 1's), and
   * host 1 then had room for one copy but partition 3, the one left short, already had it: two copies forever.
   */
  @Test
  void shouldGiveAReturningHostItsOwnPartitionsFirstAndNoMoreThanItHasSitesFor() {
    formedFiveHosts();
    // The placement: 0 on {0,1,2}, 1 on {3,4,0}, 2 on {1,2,3}, 3 on {4,0,1}, 4 on {2,3,4}.
    apply(MetadataStateTest.markDead(0, 10));
    apply(MetadataStateTest.markDead(1, 11));
    rejoined(0, 20);
    rejoined(1, 21);
    assertEquals(List.of(0, 1), RejoinPlan.joiningHosts(state.snapshot(), 2, 3), "both wait; the plan serves one");
    final RejoinPlan first = RejoinPlan.next(state.snapshot(), 2, 3);
    assertEquals(new RejoinPlan(0, 20, List.of(0, 1, 3)), first, "partitions 0-3 are short; host 0's are 0, 1, 3");
    added(first);
    assertEquals(List.of(1), RejoinPlan.joiningHosts(state.snapshot(), 2, 3), "host 0 holds its three copies");
    final RejoinPlan second = RejoinPlan.next(state.snapshot(), 2, 3);
    assertEquals(new RejoinPlan(1, 21, List.of(0, 2, 3)), second);
    added(second);
    assertNull(RejoinPlan.next(state.snapshot(), 2, 3), "every partition has three copies again");
  }

  @Test
  void shouldNotGiveAHostMoreCopiesThanItHasSites() {
    formedFiveHosts();
    apply(MetadataStateTest.markDead(0, 10));
    apply(MetadataStateTest.markDead(1, 11));
    rejoined(0, 20);
    // Host 0 takes partition 2 first (host 1's: as if the partition were its own), then its own 0 and 1.
    apply(MetadataStateTest.addReplica(2, state.map().replicas(2).epoch(), 0, 20));
    assertEquals(new RejoinPlan(0, 20, List.of(0, 1)), RejoinPlan.next(state.snapshot(), 2, 3),
        "room for two more: its own short partitions, 3 left out");
  }
}
