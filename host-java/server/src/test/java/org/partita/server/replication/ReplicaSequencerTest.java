package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.proto.txn.WorkItem;

/**
 * A replica's sequencing, fencing and acknowledgements without sockets or a
 * database: items run once each in sequence order, markers are acknowledged
 * in their place without running, an older epoch is refused and a newer one
 * waits, items sent again are acknowledged again from the repair log, which
 * the committed sequence trims, and a write hash other than the leader's
 * stops the copy.
 */
class ReplicaSequencerTest {
  /** The deterministic "engine": an item's write hash is its sequence times 31. */
  private static long hashOf(WorkItem item) {
    return item.getHeader().getSequence() * 31;
  }

  private final List<Integer> woken = new ArrayList<>();
  private FakeExecutor executor = new FakeExecutor(1024, ReplicaSequencerTest::hashOf);
  private ReplicaSequencer copy = new ReplicaSequencer(2, 1, 1, 0, executor, woken::add);

  private static ReplicatedItem run(long sequence) {
    return TestItems.replicated(2, 1, sequence, sequence * 31);
  }

  private static ReplicatedItem marker(long sequence) {
    return TestItems.replicated(2, 1, sequence, 0);
  }

  /** Every acknowledged (sequence, hash) pair the copy has for its leader now, in order. */
  private List<long[]> acks() {
    final List<long[]> out = new ArrayList<>();
    for (InternalFrame frame = copy.drain(0); frame != null; frame = copy.drain(0)) {
      final ReplicationAck ack = frame.getReplicationAck();
      assertEquals(2, ack.getPartition());
      assertEquals(1, ack.getReplicaHostId());
      for (int i = 0; i < ack.getWriteHashesCount(); i++) {
        out.add(new long[] {ack.getFirstSequence() + i, ack.getWriteHashes(i)});
      }
    }
    return out;
  }

  private static List<Long> sequences(List<long[]> acks) {
    return acks.stream().map(a -> a[0]).toList();
  }

  @Test
  void shouldRunItemsInOrderAndAcknowledgeMarkersInTheirPlace() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), marker(2), run(3), marker(4))));
    assertEquals(2, executor.queued(), "markers are not run");
    assertEquals(List.of(), acks(), "the marker after item 1 waits for it");
    executor.runNext();
    final List<long[]> first = acks();
    assertEquals(List.of(1L, 2L), sequences(first));
    assertEquals(31, first.get(0)[1]);
    assertEquals(0, first.get(1)[1]);
    executor.runNext();
    assertEquals(List.of(3L, 4L), sequences(acks()));
    assertEquals(List.of(1L, 3L), executor.ran);
    assertTrue(woken.stream().allMatch(h -> h == 0), "only the leader's link is woken");
  }

  @Test
  void shouldWakeTheLeadersLinkOncePerRunOfItemsOrEveryBoundWhileItemsStayQueued() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2), marker(3))));
    woken.clear();
    executor.runNext();
    assertEquals(List.of(), woken, "item 2 is still queued: its run wakes the link");
    executor.runNext();
    assertEquals(List.of(0), woken, "everything given to the site ran");
    assertEquals(List.of(1L, 2L, 3L), sequences(acks()));

    final ReplicatedItem[] many = new ReplicatedItem[ReplicaSequencer.ACK_EVERY + 1];
    for (int i = 0; i < many.length; i++) {
      many[i] = run(4 + i);
    }
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, many)));
    woken.clear();
    for (int i = 0; i < ReplicaSequencer.ACK_EVERY; i++) {
      executor.runNext();
    }
    assertEquals(List.of(0), woken, "a site that stays busy still acknowledges in bounded batches");
    assertEquals(ReplicaSequencer.ACK_EVERY, acks().size());
    executor.runNext();
    assertEquals(List.of(0, 0), woken);
  }

  @Test
  void shouldRefuseAnOlderEpochAndHoldANewerOneUntilTheMetadataShowsIt() {
    copy = new ReplicaSequencer(2, 2, 1, 0, executor, woken::add);
    assertTrue(copy.receive(TestItems.batch(2, 1, 0, 0, run(1))).contains("older than this copy's epoch 2"));
    final ReplicatedItem newer = TestItems.replicated(2, 3, 1, 31);
    assertNull(copy.receive(TestItems.batch(2, 3, 0, 0, newer)));
    assertEquals(0, executor.queued(), "epoch 3 waits");
    copy.enterEpoch(3);
    assertEquals(3, copy.epoch());
    assertEquals(1, executor.queued());
    assertTrue(copy.receive(TestItems.batch(2, 2, 0, 0, run(1))).contains("older"));
  }

  @Test
  void shouldRefuseMissingItemsAndItemsOfAnotherPartitionOrLeader() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1))));
    assertTrue(copy.receive(TestItems.batch(2, 1, 0, 0, run(3))).contains("sequence 3 after 1: items are missing"));
    assertTrue(copy.receive(TestItems.batch(2, 1, 5, 0, run(2))).contains("from host 5"));
    assertTrue(copy.receive(TestItems.batch(2, 1, 0, 0, TestItems.replicated(4, 1, 2, 62))).contains(
        "an item of partition 4"));
    final ReplicatedItem badMarker = ReplicatedItem.newBuilder(marker(2)).setWriteHash(5).build();
    assertTrue(copy.receive(TestItems.batch(2, 1, 0, 0, badMarker)).contains("a marker"));
  }

  @Test
  void shouldAcknowledgeItemsSentAgainWithoutRunningThemTwice() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2))));
    executor.runAll();
    assertEquals(List.of(1L, 2L), sequences(acks()));
    // The leader did not get the acknowledgements (its connection broke) and sends both again.
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2), run(3))));
    executor.runAll();
    assertEquals(List.of(1L, 2L, 3L), executor.ran, "each item ran once");
    assertEquals(List.of(1L, 2L, 3L), sequences(acks()));
  }

  @Test
  void shouldAcknowledgeAgainAfterItsOwnConnectionToTheLeaderReopened() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2))));
    executor.runAll();
    assertEquals(List.of(1L, 2L), sequences(acks()));
    copy.reconnected(0);
    assertEquals(List.of(1L, 2L), sequences(acks()));
  }

  @Test
  void shouldTrimTheRepairLogByTheCommittedSequence() {
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2), run(3))));
    executor.runAll();
    acks();
    assertEquals(3, copy.repairLogSize());
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 2, run(4))));
    assertEquals(2, copy.repairLogSize(), "items 1 and 2 committed; 3 and 4 kept");
    copy.reconnected(0);
    executor.runAll();
    assertEquals(List.of(3L, 4L), sequences(acks()), "acknowledged again from the log: what was not committed");
  }

  @Test
  void shouldStopTheCopyAtAWriteHashOtherThanTheLeaders() {
    executor = new FakeExecutor(1024, item -> item.getHeader().getSequence() == 2 ? 777 : hashOf(item));
    copy = new ReplicaSequencer(2, 1, 1, 0, executor, woken::add);
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(1), run(2), run(3), marker(4))));
    executor.runAll();
    assertEquals(List.of(1L, 2L), executor.ran, "item 3 was dropped once the copy stopped");
    final List<long[]> acks = acks();
    assertEquals(List.of(1L, 2L), sequences(acks), "the mismatch is acknowledged (the leader sees it), then nothing");
    assertEquals(777, acks.get(1)[1]);
    final String reason = copy.stopReason();
    assertNotNull(reason);
    assertTrue(reason.contains("sequence 2") && reason.contains("procedure Put") && reason.contains("[2, 20]")
        && reason.contains("309") && reason.contains("3e"), reason);
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, run(5))), "a stopped copy ignores batches");
    assertEquals(0, executor.queued());
  }

  @Test
  void shouldFeedAFullQueueAsItDrains() {
    executor = new FakeExecutor(2, ReplicaSequencerTest::hashOf);
    copy = new ReplicaSequencer(2, 1, 1, 0, executor, woken::add);
    final ReplicatedItem[] items = new ReplicatedItem[10];
    for (int i = 0; i < items.length; i++) {
      items[i] = run(i + 1);
    }
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, items)));
    assertEquals(2, executor.queued());
    executor.runAll();
    assertEquals(10, executor.ran.size());
    assertEquals(10, copy.doneThrough());
  }

  /** Random batch splits, resends, reconnections and queue sizes: every item runs once, acks are consecutive. */
  @Test
  void shouldRunEachItemOnceInOrderUnderRandomDelivery() {
    for (long seed = 1; seed <= 20; seed++) {
      final Random random = new Random(seed);
      executor = new FakeExecutor(1 + random.nextInt(8), ReplicaSequencerTest::hashOf);
      copy = new ReplicaSequencer(2, 1, 1, 0, executor, host -> { });
      final int total = 300;
      long sent = 0;
      long acked = 0;
      long committed = 0;
      while (acked < total) {
        switch (random.nextInt(4)) {
          case 0 -> {
            final long from = Math.max(1, sent + 1 - random.nextInt(4)); // sometimes resends
            final long to = Math.min(total, sent + random.nextInt(6));
            final List<ReplicatedItem> items = new ArrayList<>();
            for (long s = from; s <= to; s++) {
              items.add(s % 3 == 0 ? marker(s) : run(s));
            }
            committed = Math.max(committed, Math.min(acked, random.nextInt(2) == 0 ? acked : committed));
            assertNull(copy.receive(TestItems.batch(2, 1, 0, committed, items.toArray(new ReplicatedItem[0]))),
                "seed " + seed);
            sent = Math.max(sent, to);
          }
          case 1 -> executor.runNext();
          case 2 -> copy.reconnected(0);
          default -> {
            for (long[] a : acks()) {
              assertTrue(a[0] <= acked + 1, "seed " + seed + ": acknowledgements follow each other");
              assertEquals(a[0] % 3 == 0 ? 0 : a[0] * 31, a[1], "seed " + seed);
              acked = Math.max(acked, a[0]);
            }
          }
        }
      }
      final List<Long> expected = new ArrayList<>();
      for (long s = 1; s <= total; s++) {
        if (s % 3 != 0) {
          expected.add(s);
        }
      }
      assertEquals(expected, executor.ran, "seed " + seed);
    }
  }

  @Test
  void shouldRunAPreparedPartAndItsDecisionAsItemsOfTheirOwn() {
    final ReplicatedItem prepared = ReplicatedItem.newBuilder().setItem(TestItems.part(5, true)
        .toProto(TestItems.header(2, 1, 1))).setWriteHash(31).build();
    final ReplicatedItem rollBack = ReplicatedItem.newBuilder().setItem(TestItems.decision(5, false)
        .toProto(TestItems.header(2, 1, 2))).setWriteHash(62).build();
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, prepared, rollBack)));
    assertEquals(2, executor.queued(), "a decision that changed nothing (a roll back) is run, not a marker");
    executor.runAll();
    assertEquals(List.of(1L, 2L), executor.ran);
    assertEquals(List.of(1L, 2L), sequences(acks()));
    assertNull(copy.stopReason());
  }
}
