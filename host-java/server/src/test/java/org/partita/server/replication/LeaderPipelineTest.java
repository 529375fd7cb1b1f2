package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicatedItem;
import org.partita.proto.cluster.ReplicationBatch;
import org.partita.proto.txn.WorkItem.KindCase;

/**
 * The leader's side of replication without sockets: answers leave only
 * when every replica acknowledged with the leader's hash, in sequence
 * order; what a replica gets depends on how the item ended; a mismatch
 * holds every later answer; a reconnection sends again what was not
 * acknowledged; bad acknowledgements are refused by reason.
 */
class LeaderPipelineTest {
  private final List<Integer> woken = new ArrayList<>();
  private final List<Long> answered = new ArrayList<>();
  private final LeaderPipeline leader = new LeaderPipeline(3, 1, 0, List.of(1, 2), woken::add);

  private void release(long sequence, long hash) {
    leader.release(TestItems.header(3, 1, sequence), TestItems.put(sequence, sequence), hash,
        () -> answered.add(sequence));
  }

  private List<ReplicatedItem> drainAll(int host) {
    final List<ReplicatedItem> items = new ArrayList<>();
    for (InternalFrame frame = leader.drain(host); frame != null; frame = leader.drain(host)) {
      final ReplicationBatch batch = frame.getReplicationBatch();
      assertEquals(3, batch.getPartition());
      assertEquals(1, batch.getEpoch());
      assertEquals(0, batch.getLeaderHostId());
      items.addAll(batch.getItemsList());
    }
    return items;
  }

  @Test
  void shouldReleaseAnAnswerOnlyOnceEveryReplicaAcknowledgedItsHash() {
    release(1, 0x11);
    release(2, 0);
    release(3, 0x33);
    assertEquals(List.of(), woken, "the links wait until the site ran what it had queued");
    leader.siteIdle();
    assertEquals(List.of(1, 2), woken, "one wake-up per link for the whole run of items");
    assertEquals(List.of(), answered);
    final List<ReplicatedItem> sent = drainAll(1);
    assertEquals(3, sent.size());
    assertEquals(KindCase.SINGLE_PARTITION, sent.get(0).getItem().getKindCase());
    assertEquals(0x11, sent.get(0).getWriteHash());
    assertEquals(KindCase.KIND_NOT_SET, sent.get(1).getItem().getKindCase(), "a change-nothing item is a marker");
    assertEquals(0x33, sent.get(2).getWriteHash());
    assertNull(leader.drain(1), "everything was sent");

    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11, 0, 0x33)));
    assertEquals(List.of(), answered, "host 2 has acknowledged nothing");
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 1, 0x11, 0)));
    assertEquals(List.of(1L, 2L), answered);
    assertEquals(2, leader.committed());
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 3, 0x33)));
    assertEquals(List.of(1L, 2L, 3L), answered);
    assertEquals(3, leader.committed());
  }

  @Test
  void shouldSendATransactionStoppedByItsTimeLimitAsAnAbortedItem() {
    leader.aborted(TestItems.header(3, 1, 1));
    release(1, 0);
    release(2, 0x22);
    final List<ReplicatedItem> sent = drainAll(2);
    assertEquals(KindCase.ABORTED, sent.get(0).getItem().getKindCase());
    assertEquals(1, sent.get(0).getItem().getHeader().getSequence());
    assertEquals(KindCase.SINGLE_PARTITION, sent.get(1).getItem().getKindCase());
  }

  @Test
  void shouldHoldEveryAnswerFromAHashMismatchOn() {
    release(1, 0x11);
    release(2, 0x22);
    release(3, 0x33);
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11, 0x22, 0x33)));
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 1, 0x11, 0x99, 0x33)), "a mismatch is reported, not refused");
    assertEquals(List.of(1L), answered);
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 2, 0x22, 0x33)), "the diverged replica is no longer heard");
    assertEquals(List.of(1L), answered);
    assertEquals(1, leader.committed());
  }

  @Test
  void shouldSendAgainWhatWasNotAcknowledgedAfterAReconnection() {
    release(1, 0x11);
    release(2, 0x22);
    release(3, 0x33);
    assertEquals(3, drainAll(1).size());
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11)));
    leader.reconnected(1);
    final List<ReplicatedItem> again = drainAll(1);
    assertEquals(List.of(2L, 3L), again.stream().map(i -> i.getItem().getHeader().getSequence()).toList());
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11, 0x22)), "acknowledgements taken already are skipped");
  }

  @Test
  void shouldRefuseAcknowledgementsOfAnotherEpochAnUnknownHostAGapOrAnUnsentItem() {
    release(1, 0x11);
    release(2, 0x22);
    assertTrue(leader.ack(TestItems.ack(3, 2, 1, 1, 0x11)).contains("in epoch 2, but this leader is in epoch 1"));
    assertTrue(leader.ack(TestItems.ack(3, 1, 7, 1, 0x11)).contains("from host 7, which holds no copy"));
    assertTrue(leader.ack(TestItems.ack(3, 1, 1, 2, 0x22)).contains("sequence 2 from host 1, which had"
        + " acknowledged up to 0"));
    assertTrue(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11, 0x22, 0x33)).contains("sequence 3"));
    assertEquals(List.of(), answered);
  }

  @Test
  void shouldWakeTheLinksEveryBoundOfItemsWhileTheSiteStaysBusyAndOnlyOnceWhenItRunsDry() {
    for (long s = 1; s <= LeaderPipeline.WAKE_EVERY - 1; s++) {
      release(s, s);
    }
    assertEquals(List.of(), woken);
    release(LeaderPipeline.WAKE_EVERY, 7);
    assertEquals(List.of(1, 2), woken, "a site that never runs dry still sends in bounded batches");
    assertEquals(LeaderPipeline.WAKE_EVERY, drainAll(1).size());
    leader.siteIdle();
    assertEquals(List.of(1, 2), woken, "nothing released since: no wake-up");
    release(LeaderPipeline.WAKE_EVERY + 1, 9);
    leader.siteIdle();
    assertEquals(List.of(1, 2, 1, 2), woken);
    assertEquals(1, drainAll(1).size());
  }

  @Test
  void shouldBatchAtMostTheBoundOfItemsPerFrame() {
    for (long s = 1; s <= LeaderPipeline.MAX_BATCH_ITEMS + 5; s++) {
      release(s, s);
    }
    final InternalFrame first = leader.drain(1);
    assertEquals(LeaderPipeline.MAX_BATCH_ITEMS, first.getReplicationBatch().getItemsCount());
    assertEquals(5, leader.drain(1).getReplicationBatch().getItemsCount());
    assertNull(leader.drain(1));
  }

  /** Random acknowledgement chunks, duplicates and reconnections: each answer once, in order, only when both acked. */
  @Test
  void shouldReleaseEachAnswerOnceInOrderUnderRandomAcknowledgements() {
    for (long seed = 1; seed <= 20; seed++) {
      final Random random = new Random(seed);
      final List<Long> out = new ArrayList<>();
      final LeaderPipeline p = new LeaderPipeline(0, 1, 0, List.of(1, 2), host -> { });
      final long[] acked = new long[3];
      final long items = 200;
      long released = 0;
      while (acked[1] < items || acked[2] < items) {
        if (released < items && random.nextInt(3) > 0) {
          released++;
          final long s = released;
          p.release(TestItems.header(0, 1, s), TestItems.put(s, s), s * 31, () -> out.add(s));
          continue;
        }
        final int host = 1 + random.nextInt(2);
        if (random.nextInt(10) == 0) {
          p.reconnected(host);
        }
        final long from = Math.max(1, acked[host] - random.nextInt(3)); // sometimes again
        final long to = Math.min(released, acked[host] + random.nextInt(5));
        if (to < from) {
          continue;
        }
        final long[] hashes = new long[(int) (to - from + 1)];
        for (int i = 0; i < hashes.length; i++) {
          hashes[i] = (from + i) * 31;
        }
        assertNull(p.ack(TestItems.ack(0, 1, host, from, hashes)), "seed " + seed);
        acked[host] = Math.max(acked[host], to);
        final long both = Math.min(acked[1], acked[2]);
        assertEquals(both, out.size(), "seed " + seed + ": released exactly what both acknowledged");
      }
      for (int i = 0; i < out.size(); i++) {
        assertEquals((long) (i + 1), (long) out.get(i), "seed " + seed);
      }
    }
  }

  @Test
  void shouldSendAPreparedPartWholeAndCallItPreparedOnceEveryReplicaHoldsIt() {
    final List<String> outcome = new ArrayList<>();
    leader.prepare(TestItems.header(3, 1, 1), TestItems.part(7, true), 0, () -> outcome.add("prepared"),
        lost -> outcome.add("lost"));
    leader.siteIdle();
    final List<ReplicatedItem> sent = drainAll(1);
    assertEquals(KindCase.MULTI_PARTITION_RUN, sent.get(0).getItem().getKindCase(),
        "a prepared part that wrote nothing still travels whole: the replica holds it until the decision");
    assertTrue(sent.get(0).getItem().getMultiPartitionRun().getPrepared());
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0)));
    assertEquals(List.of(), outcome, "host 2 does not hold it yet");
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 1, 0)));
    assertEquals(List.of("prepared"), outcome);

    leader.decide(TestItems.header(3, 1, 2), TestItems.decision(7, false), 0, () -> answered.add(2L));
    leader.siteIdle();
    final List<ReplicatedItem> decision = drainAll(2);
    assertEquals(1, decision.size(), "host 2 acknowledged the part: it gets the decision only");
    assertEquals(KindCase.DECISION, decision.get(0).getItem().getKindCase(), "a roll back travels as an item too");
    assertEquals(false, decision.get(0).getItem().getDecision().getCommit());
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 2, 0)));
    assertNull(leader.ack(TestItems.ack(3, 1, 2, 2, 0)));
    assertEquals(List.of(2L), answered);
  }

  @Test
  void shouldTellAPendingPrepareItIsLostWhenDeposed() {
    final List<String> outcome = new ArrayList<>();
    leader.prepare(TestItems.header(3, 1, 1), TestItems.part(7, true), 0x55, () -> outcome.add("prepared"),
        lost -> outcome.add(lost.errorCode().name()));
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x55)));
    leader.depose("host 0 was declared dead");
    assertEquals(List.of("ERROR_CODE_OUTCOME_UNKNOWN"), outcome, "never prepared on host 2: the coordinator hears so");
  }

  @Test
  void shouldCallAPendingPrepareDoneWhenNoOtherCopyIsLeft() {
    final List<String> outcome = new ArrayList<>();
    leader.prepare(TestItems.header(3, 1, 1), TestItems.part(7, true), 0x55, () -> outcome.add("prepared"),
        lost -> outcome.add("lost"));
    leader.alone();
    assertEquals(List.of("prepared"), outcome, "the surviving copy is every copy there is");
  }
}
