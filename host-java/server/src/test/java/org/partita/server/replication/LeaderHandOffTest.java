package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RepairItems;
import org.partita.proto.cluster.RepairOffer;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.txn.WorkItem;

/**
 * A leader handing its partition over to a replica without sockets or a
 * database (docs/cluster.md, "Leader rebalancing"): the old leader may hand
 * over only once every replica acknowledged everything it ran in its epoch;
 * the copy it keeps offers that order to the new leader like a survivor's,
 * the new leader's repair finds nothing lacking, and the old leader's copy
 * then runs and acknowledges the new leader's epoch.
 */
class LeaderHandOffTest {
  private static final int PARTITION = 3;

  private static long hashOf(WorkItem item) {
    return item.getHeader().getSequence() * 31 + item.getHeader().getEpoch();
  }

  private static ReplicatedItem item(long epoch, long sequence) {
    return TestItems.replicated(PARTITION, epoch, sequence, sequence * 31 + epoch);
  }

  private final List<Integer> woken = new ArrayList<>();
  private final List<Long> answered = new ArrayList<>();
  /** Host 0 leads the partition in epoch 1 with a replica on host 1. */
  private final LeaderPipeline leader = new LeaderPipeline(PARTITION, 1, 0, List.of(1), woken::add);
  private final FakeExecutor site1 = new FakeExecutor(1024, LeaderHandOffTest::hashOf);
  private final ReplicaSequencer copy1 = new ReplicaSequencer(PARTITION, 1, 1, 0, site1, woken::add);

  private void release(long sequence) {
    leader.release(TestItems.header(PARTITION, 1, sequence), TestItems.put(sequence, sequence), sequence * 31 + 1,
        () -> answered.add(sequence));
  }

  /** Everything the leader has for host 1 goes to its copy, which runs it; its acknowledgements come back. */
  private void replicate() {
    for (InternalFrame frame = leader.drain(1); frame != null; frame = leader.drain(1)) {
      assertNull(copy1.receive(frame.getReplicationBatch()));
    }
    site1.runAll();
    for (InternalFrame frame = copy1.drain(0); frame != null; frame = copy1.drain(0)) {
      assertNull(leader.ack(frame.getReplicationAck()));
    }
  }

  @Test
  void shouldHandOverOnlyWhenEveryReplicaAcknowledgedEverythingRunInTheEpoch() {
    assertEquals("no item has run in epoch 1 yet", leader.handOffBlocker(),
        "a replica may not have entered the epoch before its first item");
    release(1);
    release(2);
    leader.siteIdle();
    assertEquals("2 item(s) wait for acknowledgements", leader.handOffBlocker());
    replicate();
    assertEquals(List.of(1L, 2L), answered);
    assertNull(leader.handOffBlocker());
    leader.depose("gone");
    assertEquals("this host no longer leads it", leader.handOffBlocker());
  }

  @Test
  void shouldLetTheOldLeadersCopyFollowTheNewLeaderWithNothingToRepair() {
    release(1);
    release(2);
    release(3);
    leader.siteIdle();
    replicate();
    assertNull(leader.handOffBlocker());

    // The metadata made host 1 the leader in epoch 2; host 0 keeps a copy of what it ran.
    leader.depose("host 1 leads it from epoch 2: leadership handed over");
    assertEquals(List.of(1L, 2L, 3L), answered, "nothing was held, so no answer failed");
    final FakeExecutor site0 = new FakeExecutor(1024, LeaderHandOffTest::hashOf);
    final ReplicaSequencer copy0 = ReplicaSequencer.handedOver(PARTITION, 1, leader.last(), 0, 1, 2, site0,
        woken::add);
    final InternalFrame offerFrame = copy0.drain(1);
    assertNotNull(offerFrame);
    final RepairOffer offer = offerFrame.getRepairOffer();
    assertEquals(2, offer.getEpoch());
    assertEquals(1, offer.getOldEpoch());
    assertEquals(3, offer.getLastReceived());
    assertEquals(0, offer.getItemsCount(), "every item was committed: nothing to carry");

    final RepairOffer own = copy1.fence(2);
    final RepairUnion union = RepairUnion.of(own, List.of(offer));
    assertEquals(3, union.through());
    assertEquals(List.of(), union.after(own.getLastReceived()), "the new leader lacks nothing");
    assertEquals(List.of(), union.after(offer.getLastReceived()), "the old leader lacks nothing");

    // The new leader's first batch waits for its (empty) repair, then runs.
    assertNull(copy0.receive(TestItems.batch(PARTITION, 2, 1, 0, item(2, 1), item(2, 2))));
    assertEquals(0, site0.queued());
    assertNull(copy0.repair(RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2).setLeaderHostId(1)
        .setOldEpoch(1).setThrough(3).build()));
    assertEquals(2, copy0.epoch());
    site0.runAll();
    assertEquals(List.of(1L, 2L), site0.ran, "the old leader's copy runs only the new epoch's items");
    final List<String> acks = new ArrayList<>();
    for (InternalFrame frame = copy0.drain(1); frame != null; frame = copy0.drain(1)) {
      final ReplicationAck ack = frame.getReplicationAck();
      for (int i = 0; i < ack.getWriteHashesCount(); i++) {
        acks.add(ack.getEpoch() + ":" + (ack.getFirstSequence() + i));
      }
    }
    assertEquals(List.of("2:1", "2:2"), acks);
    assertNull(copy0.stopReason());
    assertTrue(copy0.drain(0) == null, "nothing goes to the old leader's own host id");
  }
}
