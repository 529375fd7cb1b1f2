package org.partita.server.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.partita.proto.txn.WorkItem;

class InitiatorTest {
  /** Records what the initiator tells it. */
  private static final class RecordingPipeline implements CommitPipeline {
    final List<TxnHeader> sequenced = new ArrayList<>();

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {
      sequenced.add(header);
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      answer.run();
    }
  }

  private static final SequencedItem ITEM = header -> WorkItem.newBuilder().setHeader(header.toProto()).build();

  @Test
  void shouldGiveConsecutiveSequencesAndTellThePipelineInOrder() {
    final RecordingPipeline pipeline = new RecordingPipeline();
    final Initiator initiator = new Initiator(3, 7, pipeline, () -> 1_000);
    final TxnHeader first = initiator.sequence(ITEM, 1);
    final TxnHeader second = initiator.sequence(ITEM, 2);
    assertEquals(new TxnId(3, 7, 1), first.id());
    assertEquals(new TxnId(3, 7, 2), second.id());
    assertEquals(2, second.catalogVersion());
    assertEquals(List.of(first, second), pipeline.sequenced);
    assertEquals(2, initiator.lastSequence());
  }

  @Test
  void shouldKeepTimestampsStrictlyIncreasingWhenTheClockStandsStillOrGoesBack() {
    final AtomicLong clock = new AtomicLong(5_000);
    final Initiator initiator = new Initiator(0, 1, ImmediateCommitPipeline.INSTANCE, clock::get);
    final long a = initiator.sequence(ITEM, 1).timestampMicros();
    final long b = initiator.sequence(ITEM, 1).timestampMicros();
    clock.set(10);
    final long c = initiator.sequence(ITEM, 1).timestampMicros();
    clock.set(9_000);
    final long d = initiator.sequence(ITEM, 1).timestampMicros();
    assertEquals(5_000, a);
    assertEquals(5_001, b);
    assertEquals(5_002, c);
    assertEquals(9_000, d);
  }

  @Test
  void shouldDeriveDistinctSeedsFromTheIdAlone() {
    final long s1 = Initiator.seed(new TxnId(0, 1, 1));
    assertEquals(s1, Initiator.seed(new TxnId(0, 1, 1)));
    assertNotEquals(s1, Initiator.seed(new TxnId(0, 1, 2)));
    assertNotEquals(s1, Initiator.seed(new TxnId(1, 1, 1)));
    assertNotEquals(s1, Initiator.seed(new TxnId(0, 2, 1)));
  }

  @Test
  void shouldAnswerAtOnceWithTheImmediatePipeline() {
    final boolean[] answered = {false};
    ImmediateCommitPipeline.INSTANCE.release(null, ITEM, () -> answered[0] = true);
    assertTrue(answered[0]);
    assertSame(ImmediateCommitPipeline.INSTANCE, Initiator.forPartition(0, ImmediateCommitPipeline.INSTANCE).pipeline());
  }
}
