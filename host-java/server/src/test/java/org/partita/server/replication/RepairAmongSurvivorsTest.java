package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.WorkItem;

/**
 * A partition with three copies (K = 2) without sockets or a database: when
 * its leader dies, the survivors, which received different prefixes of its
 * order, end with the longest one before anything of the new epoch runs
 * (the one that leads next runs what it lacks, the other gets what it lacks
 * from it); a replica that keeps its leader enters the new epoch only after
 * the old one; a leader that keeps leading with a replica fewer releases
 * what waited only for the dead one, and its new epoch waits for the old.
 */
class RepairAmongSurvivorsTest {
  private static final int PARTITION = 4;

  /** The deterministic "engine": an item's write hash is its sequence times 31 plus its epoch. */
  private static long hashOf(WorkItem item) {
    return item.getHeader().getSequence() * 31 + item.getHeader().getEpoch();
  }

  private static ReplicatedItem item(long epoch, long sequence) {
    return TestItems.replicated(PARTITION, epoch, sequence, sequence * 31 + epoch);
  }

  private static ReplicatedItem[] items(long epoch, long from, long through) {
    final List<ReplicatedItem> out = new ArrayList<>();
    for (long s = from; s <= through; s++) {
      out.add(item(epoch, s));
    }
    return out.toArray(new ReplicatedItem[0]);
  }

  private final List<Integer> woken = new ArrayList<>();
  private final FakeExecutor site1 = new FakeExecutor(1024, RepairAmongSurvivorsTest::hashOf);
  private final FakeExecutor site2 = new FakeExecutor(1024, RepairAmongSurvivorsTest::hashOf);
  /** Hosts 1 and 2 hold copies of a partition host 0 leads in epoch 1. */
  private final ReplicaSequencer copy1 = new ReplicaSequencer(PARTITION, 1, 1, 0, site1, woken::add);
  private final ReplicaSequencer copy2 = new ReplicaSequencer(PARTITION, 1, 2, 0, site2, woken::add);

  /** Every (epoch, sequence) the copy acknowledged to {@code leader} now. */
  private static List<String> acks(ReplicaSequencer copy, int leader) {
    final List<String> out = new ArrayList<>();
    for (InternalFrame frame = copy.drain(leader); frame != null; frame = copy.drain(leader)) {
      if (frame.hasReplicationAck()) {
        final ReplicationAck ack = frame.getReplicationAck();
        for (int i = 0; i < ack.getWriteHashesCount(); i++) {
          out.add(ack.getEpoch() + ":" + (ack.getFirstSequence() + i));
        }
      }
    }
    return out;
  }

  @Test
  void shouldEndEverySurvivorWithTheLongestOrderBeforeTheNewEpoch() {
    // Host 0 sent 1..3 to host 1 and 1..6 to host 2, then died; host 1 (the lowest id) leads epoch 2.
    assertNull(copy1.receive(TestItems.batch(PARTITION, 1, 0, 2, items(1, 1, 3))));
    assertNull(copy2.receive(TestItems.batch(PARTITION, 1, 0, 2, items(1, 1, 6))));
    site1.runAll();
    site2.runAll();
    acks(copy1, 0);
    acks(copy2, 0);

    final RepairOffer own = copy1.fence(2);
    copy2.followLeader(1, 2);
    final InternalFrame offerFrame = copy2.drain(1);
    assertNotNull(offerFrame);
    final RepairOffer offer = offerFrame.getRepairOffer();
    assertEquals(2, offer.getEpoch());
    assertEquals(1, offer.getOldEpoch());
    assertEquals(6, offer.getLastReceived());
    assertEquals(2, offer.getHostId());
    assertNull(copy2.drain(1), "the offer goes once per connection");
    copy2.reconnected(1);
    assertTrue(copy2.drain(1).hasRepairOffer(), "and again on a new connection");

    assertNotNull(copy2.receive(TestItems.batch(PARTITION, 1, 0, 2, item(1, 7))),
        "the dead leader's batches are refused from now on");
    assertNotNull(copy1.receive(TestItems.batch(PARTITION, 1, 0, 2, item(1, 4))), "the fenced copy takes none");

    final RepairUnion union = RepairUnion.of(own, List.of(offer));
    assertEquals(6, union.through());
    final List<ReplicatedItem> lacking = union.after(own.getLastReceived());
    assertEquals(3, lacking.size());
    assertNull(copy1.supply(lacking));
    site1.runAll();
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), site1.ran, "the new leader ran what only host 2 had received");
    assertNull(copy1.stopReason());
    assertEquals(List.of(), union.after(6), "host 2 lacks nothing");

    // The new epoch's first batch waits at host 2 until the repair came and ran.
    assertNull(copy2.receive(TestItems.batch(PARTITION, 2, 1, 0, items(2, 1, 2))));
    assertEquals(0, site2.queued());
    assertNull(copy2.repair(RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2).setLeaderHostId(1)
        .setOldEpoch(1).setThrough(6).build()));
    assertEquals(2, copy2.epoch(), "nothing was lacking and everything ran: the copy enters epoch 2");
    site2.runAll();
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 1L, 2L), site2.ran);
    assertEquals(List.of("2:1", "2:2"), acks(copy2, 1), "only the new epoch is acknowledged to the new leader");
  }

  @Test
  void shouldRunTheItemsARepairBringsBeforeTheNewEpochsAndCheckTheirHashes() {
    assertNull(copy2.receive(TestItems.batch(PARTITION, 1, 0, 0, items(1, 1, 2))));
    site2.runAll();
    copy2.followLeader(1, 2);
    assertNull(copy2.receive(TestItems.batch(PARTITION, 2, 1, 0, item(2, 1))));
    final RepairItems repair = RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2).setLeaderHostId(1)
        .setOldEpoch(1).setThrough(4).addItems(item(1, 3)).addItems(item(1, 4)).build();
    assertNull(copy2.repair(RepairItems.newBuilder(repair).setEpoch(3).build()), "another epoch's: ignored");
    assertEquals(0, site2.queued());
    assertNull(copy2.repair(repair));
    assertEquals(2, site2.queued(), "the old items first; the new epoch waits until they ran");
    assertEquals(1, copy2.epoch());
    site2.runNext();
    site2.runNext();
    assertEquals(2, copy2.epoch());
    site2.runAll();
    assertEquals(List.of(1L, 2L, 3L, 4L, 1L), site2.ran);
    assertNull(copy2.repair(repair), "a repair sent again is ignored");
    assertEquals(List.of(1L, 2L, 3L, 4L, 1L), site2.ran);

    // A repaired item whose hash differs from the dead leader's stops the copy.
    final ReplicaSequencer copy = new ReplicaSequencer(PARTITION, 1, 2, 0, site1, woken::add);
    copy.followLeader(1, 2);
    assertNull(copy.repair(RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2).setLeaderHostId(1)
        .setOldEpoch(1).setThrough(1).addItems(TestItems.replicated(PARTITION, 1, 1, 99)).build()));
    site1.runAll();
    assertTrue(copy.stopReason().contains("write hash"), copy.stopReason());
    assertEquals(1, copy.epoch(), "a stopped copy does not enter the new epoch");
  }

  @Test
  void shouldRefuseARepairWhoseItemsDoNotReachItsEnd() {
    copy2.followLeader(1, 2);
    final String refusal = copy2.repair(RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2)
        .setLeaderHostId(1).setOldEpoch(1).setThrough(3).addItems(item(1, 1)).build());
    assertTrue(refusal.contains("items end at 1"), refusal);
    assertTrue(copy2.repairing());
  }

  @Test
  void shouldFindTheGapWhenNoSurvivorHoldsAnItem() {
    final RepairOffer own = RepairOffer.newBuilder().setOldEpoch(1).setLastReceived(2).build();
    final RepairOffer other = RepairOffer.newBuilder().setHostId(2).setOldEpoch(1).setLastReceived(5)
        .addItems(item(1, 4)).addItems(item(1, 5)).build();
    assertNull(RepairUnion.of(own, List.of(other)).after(2), "item 3 is on no survivor");
    final RepairOffer otherEpoch = RepairOffer.newBuilder().setHostId(2).setOldEpoch(7).build();
    assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> RepairUnion.of(own, List.of(otherEpoch))).getMessage().contains("epoch 7"));
  }

  @Test
  void shouldEnterANewEpochUnderTheSameLeaderOnlyAfterTheOldOneRan() {
    assertNull(copy1.receive(TestItems.batch(PARTITION, 1, 0, 0, items(1, 1, 2))));
    copy1.allowEpoch(2);
    assertNull(copy1.receive(TestItems.batch(PARTITION, 1, 0, 0, item(1, 3))), "the old epoch is still taken");
    assertNull(copy1.receive(TestItems.batch(PARTITION, 2, 0, 0, item(2, 1))));
    assertEquals(1, copy1.epoch(), "items of epoch 1 have not run yet");
    site1.runNext();
    site1.runNext();
    assertEquals(List.of("1:1", "1:2"), acks(copy1, 0));
    site1.runNext();
    assertEquals(1, copy1.epoch(), "the last item's acknowledgement is not out yet");
    assertEquals(List.of("1:3"), acks(copy1, 0));
    assertEquals(2, copy1.epoch());
    site1.runAll();
    assertEquals(List.of("2:1"), acks(copy1, 0));
    assertNotNull(copy1.receive(TestItems.batch(PARTITION, 1, 0, 0, item(1, 4))), "epoch 1 is over");

    // Without the metadata's word the new epoch waits, however far the copy is.
    final ReplicaSequencer copy = new ReplicaSequencer(PARTITION, 1, 2, 0, site2, woken::add);
    assertNull(copy.receive(TestItems.batch(PARTITION, 2, 0, 0, item(2, 1))));
    assertEquals(1, copy.epoch());
    copy.allowEpoch(2);
    assertEquals(2, copy.epoch());
  }

  @Test
  void shouldReleaseWhatWaitedOnlyForADroppedReplicaAndSendTheNewEpochAfterTheOld() {
    final LeaderPipeline old = new LeaderPipeline(PARTITION, 1, 0, List.of(1, 2), woken::add);
    final List<String> answered = new ArrayList<>();
    for (long s = 1; s <= 3; s++) {
      final long sequence = s;
      old.release(TestItems.header(PARTITION, 1, s), TestItems.put(s, s), s * 31 + 1, () -> answered.add("1:"
          + sequence));
    }
    assertEquals(3, old.drain(1).getReplicationBatch().getItemsCount());
    assertNull(old.ack(TestItems.ack(PARTITION, 1, 1, 1, 32, 63)));
    assertEquals(List.of(), answered, "host 2 acknowledged nothing");

    // Host 2 died: epoch 2 keeps host 1. The old pipeline stops waiting for host 2.
    final LeaderPipeline next = new LeaderPipeline(PARTITION, 2, 0, List.of(1), woken::add);
    next.follow(old);
    old.drop(2);
    assertEquals(List.of("1:1", "1:2"), answered);
    assertTrue(old.holding());
    next.release(TestItems.header(PARTITION, 2, 1), TestItems.put(1, 1), 33, () -> answered.add("2:1"));
    assertNull(next.drain(1), "nothing of epoch 2 leaves while epoch 1 holds an item");
    assertNull(old.drain(2), "the dropped replica gets nothing more");
    woken.clear();
    assertNull(old.ack(TestItems.ack(PARTITION, 1, 1, 3, 94)));
    assertEquals(List.of("1:1", "1:2", "1:3"), answered);
    assertEquals(List.of(1), woken, "the old epoch's end wakes the new epoch's links");
    final ReplicationBatch batch = next.drain(1).getReplicationBatch();
    assertEquals(2, batch.getEpoch());
    assertNull(next.ack(TestItems.ack(PARTITION, 2, 1, 1, 33)));
    assertEquals(List.of("1:1", "1:2", "1:3", "2:1"), answered);
    assertEquals(1, next.acknowledged(1));
    assertEquals(0, next.acknowledged(2));
    assertFalse(old.holding());
  }

  /**
   * Regression (a K = 2 fault run, seed 22): a survivor died before its
   * repair was acknowledged and the metadata dropped it; the leader went on
   * sending the repair on every connection to that host, whose next
   * incarnation holds no copy and closed the connection each time, ending
   * the rejoin stream on it: the host never got its copy back.
   */
  @Test
  void shouldStopSendingARepairOnceItsSurvivorIsDroppedOrThisHostNoLongerLeads() {
    final RepairItems items = RepairItems.newBuilder().setPartition(PARTITION).setEpoch(2).setLeaderHostId(0)
        .setOldEpoch(1).setThrough(3).build();
    final LeaderPipeline epoch2 = new LeaderPipeline(PARTITION, 2, 0, List.of(1, 2), woken::add);
    final RepairSender toHost2 = new RepairSender(2, items, epoch2);
    assertEquals(items, toHost2.drain(2).getRepairItems());
    assertNull(toHost2.drain(2), "sent once per connection");
    assertNull(toHost2.drain(1), "only to its survivor");
    toHost2.reconnected(2);
    assertEquals(items, toHost2.drain(2).getRepairItems(), "sent again on a new connection");

    // Host 2 died before it acknowledged anything of epoch 2: epoch 3 keeps host 1 alone.
    final LeaderPipeline epoch3 = new LeaderPipeline(PARTITION, 3, 0, List.of(1), woken::add);
    epoch3.follow(epoch2);
    epoch2.drop(2);
    toHost2.reconnected(2);
    assertNull(toHost2.drain(2), "a dropped survivor's repair is moot: its next incarnation holds no copy");

    final RepairSender toHost1 = new RepairSender(1, items, epoch2);
    assertNotNull(toHost1.drain(1));
    epoch3.depose("the metadata moved the partition to host 1");
    toHost1.reconnected(1);
    assertNull(toHost1.drain(1), "a host that no longer leads repairs no one");
  }
}
