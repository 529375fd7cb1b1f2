package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;

/**
 * What a failover does to one partition's replication, without sockets
 * (docs/cluster.md, "Failure detection and failover"): a leader left alone
 * releases what its dead replica held and answers later items at once; a
 * deposed leader fails its held answers as OUTCOME_UNKNOWN, never as
 * failed or succeeded, and refuses new work with NOT_LEADER; a replica
 * leaving its leader's order queues everything it received first, then
 * refuses that leader's batches; a diverged replica is reported so the
 * host can ask for an epoch without it.
 */
class FailoverPipelineTest {
  private final List<Integer> woken = new ArrayList<>();
  private final List<ClientResponse> answers = new ArrayList<>();
  private final LeaderPipeline leader = new LeaderPipeline(3, 1, 0, List.of(1), woken::add);

  private void release(long sequence, long hash) {
    leader.release(TestItems.header(3, 1, sequence), TestItems.put(sequence, sequence), hash,
        ClientResponse.success(List.of()), answers::add);
  }

  @Test
  void shouldReleaseWhatTheDeadReplicaHeldOnceLeftAlone() {
    release(1, 0x11);
    release(2, 0x22);
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11)));
    assertEquals(1, answers.size(), "sequence 2 waits for the replica");
    leader.alone();
    assertEquals(2, answers.size(), "the epoch without the replica releases it");
    assertTrue(answers.get(1).ok());
    release(3, 0x33);
    assertEquals(3, answers.size(), "alone: answered at once");
    assertNull(leader.drain(1), "nothing more goes to the dead replica");
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 2, 0x22)), "a late acknowledgement is ignored");
    assertNull(leader.refusal());
  }

  @Test
  void shouldReportADivergedReplicaAndReleaseItsHeldAnswersOnceItIsDropped() {
    final List<Integer> diverged = new ArrayList<>();
    leader.whenDiverged(diverged::add);
    release(1, 0x11);
    release(2, 0x22);
    assertNull(leader.ack(TestItems.ack(3, 1, 1, 1, 0x11, 0x99)));
    assertEquals(List.of(1), diverged, "the replica whose hash differed is reported once");
    assertEquals(1, answers.size(), "sequence 2 is held: its replica disagreed");
    leader.alone();
    assertEquals(2, answers.size(), "the epoch without the diverged replica releases the leader's answer");
    assertTrue(answers.get(1).ok());
  }

  @Test
  void shouldFailHeldAnswersAsOutcomeUnknownWhenDeposed() {
    release(1, 0x11);
    release(2, 0x22);
    leader.depose("host 0 was declared dead");
    assertEquals(2, answers.size());
    for (ClientResponse answer : answers) {
      assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, answer.errorCode(), answer.message());
      assertTrue(answer.message().contains("may have committed"), answer.message());
    }
    release(3, 0x33);
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, answers.get(2).errorCode(), "released after: unknown too");
    assertNotNull(leader.refusal(), "new work is refused");
    assertTrue(leader.refusal().contains("no longer leads partition 3"), leader.refusal());
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, leader.refusalCode());
    assertNull(leader.drain(1));
  }

  @Test
  void shouldQueueEverythingReceivedBeforeLeavingTheOldLeader() {
    final FakeExecutor executor = new FakeExecutor(16, item -> item.getHeader().getSequence() * 31);
    final ReplicaSequencer copy = new ReplicaSequencer(2, 1, 1, 0, executor, woken::add);
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, TestItems.replicated(2, 1, 1, 31),
        TestItems.replicated(2, 1, 2, 62), TestItems.replicated(2, 1, 3, 93))));
    executor.runNext();
    assertEquals(3, copy.retire(10_000), "every received item was given to the executor");
    assertEquals(2, executor.queued(), "queued before whatever the site is given next");
    assertTrue(copy.retired());
    assertTrue(copy.receive(TestItems.batch(2, 1, 0, 0, TestItems.replicated(2, 1, 4, 124)))
        .contains("no longer follows that leader"));
    executor.runAll();
    assertEquals(List.of(1L, 2L, 3L), executor.ran);
  }

  @Test
  void shouldDropWhatNoQueueTookAfterTheBound() {
    final FakeExecutor executor = new FakeExecutor(2, item -> item.getHeader().getSequence() * 31);
    final ReplicaSequencer copy = new ReplicaSequencer(2, 1, 1, 0, executor, woken::add);
    assertNull(copy.receive(TestItems.batch(2, 1, 0, 0, TestItems.replicated(2, 1, 1, 31),
        TestItems.replicated(2, 1, 2, 62), TestItems.replicated(2, 1, 3, 93))));
    assertEquals(2, copy.retire(20), "the third item found no room: it is not run (nothing acknowledged it)");
    executor.runAll();
    assertEquals(List.of(1L, 2L), executor.ran);
  }
}
