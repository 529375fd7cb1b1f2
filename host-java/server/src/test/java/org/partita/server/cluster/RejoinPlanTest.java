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
    assertNull(RejoinPlan.next(formed(), 1));
    assertNull(RejoinPlan.next(MetadataSnapshot.getDefaultInstance(), 1), "no map yet");
  }

  @Test
  void shouldNotPileTheDeadHostsCopiesOntoTheSurvivors() {
    formed();
    apply(MetadataStateTest.markDead(1, 11));
    assertNull(RejoinPlan.next(state.snapshot(), 1), "partitions 0 and 2 are short, but hosts 0 and 2 hold two each");
  }

  @Test
  void shouldGiveARejoinedHostEveryShortPartitionOnceItServes() {
    formed();
    apply(MetadataStateTest.markDead(1, 11));
    apply(MetadataStateTest.rejoin(1, 21));
    assertNull(RejoinPlan.next(state.snapshot(), 1), "registered but not serving yet");
    apply(serving(1, 21));
    assertEquals(new RejoinPlan(1, 21, List.of(0, 2)), RejoinPlan.next(state.snapshot(), 1));
    apply(MetadataStateTest.addReplica(0, 2, 1, 21));
    final RejoinPlan rest = RejoinPlan.next(state.snapshot(), 1);
    assertEquals(new RejoinPlan(1, 21, List.of(2)), rest);
    assertTrue(rest.gives(2));
    assertFalse(rest.gives(0));
    apply(MetadataStateTest.addReplica(2, 2, 1, 21));
    assertNull(RejoinPlan.next(state.snapshot(), 1), "every partition has K+1 copies again");
    assertNull(RejoinPlan.next(state.snapshot(), 0), "with K = 0 nothing is ever short");
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
    assertEquals(new RejoinPlan(1, 21, List.of(1)), RejoinPlan.next(state.snapshot(), 1),
        "host 1 holds one copy against host 0's two");
  }
}
