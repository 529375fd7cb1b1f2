package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.txn.WorkItem;
import org.partita.server.error.ErrorTable;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * {@link LoggedPipeline}: a cluster host's led partition logs every item
 * and answers only once both its log and its replication let the answer
 * go, whichever finishes last, with the replication's word on the outcome.
 */
class LoggedPipelineTest {
  private static final SequencedItem ITEM = header -> WorkItem.newBuilder().setHeader(header.toProto()).build();

  /** Holds every answer until the test lets it go; records what it was told, by name. */
  private static final class Holding implements CommitPipeline {
    final String name;
    final List<String> events;
    final List<Runnable> held = new ArrayList<>();
    String refusal;

    Holding(String name, List<String> events) {
      this.name = name;
      this.events = events;
    }

    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {
      events.add(name + " sequenced " + header.id().sequence());
    }

    @Override
    public void aborted(TxnHeader header) {
      events.add(name + " aborted " + header.id().sequence());
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      held.add(answer);
    }

    @Override
    public String refusal() {
      return refusal;
    }

    @Override
    public void siteIdle() {
      events.add(name + " site idle");
    }
  }

  private static TxnHeader header(long sequence) {
    return new TxnHeader(new TxnId(0, 1, sequence), 1000 + sequence, 7, 1);
  }

  /** A partition's part of a multi-partition transaction, as LocalParticipant releases it. */
  private static final SequencedItem PART = item(true, false);

  /**
   * An item that is a multi-partition part or not, and that commits the part
   * prepared before it or not (a decision).
   */
  private static SequencedItem item(boolean part, boolean commitsPreparedPart) {
    return new SequencedItem() {
      @Override
      public WorkItem toProto(TxnHeader header) {
        return WorkItem.newBuilder().setHeader(header.toProto()).build();
      }

      @Override
      public boolean multiPartitionPart() {
        return part;
      }

      @Override
      public boolean commitsPreparedPart() {
        return commitsPreparedPart;
      }
    };
  }

  @Test
  void shouldLogACommittedPartThatWroteAsARecordOfItsOwnBeforeItsAnswer() {
    final List<String> events = new ArrayList<>();
    final Holding log = new Holding("log", events);
    final Holding replicas = new Holding("replicas", events);
    final LoggedPipeline pipeline = new LoggedPipeline(log, replicas);
    final List<Long> answered = new ArrayList<>();
    pipeline.sequenced(header(1), ITEM);
    pipeline.release(header(1), PART, 42, () -> answered.add(1L));
    pipeline.sequenced(header(2), ITEM);
    pipeline.release(header(2), PART, 0, () -> answered.add(2L));
    assertEquals(List.of("log sequenced 1", "replicas sequenced 1", "log sequenced 1", "log sequenced 2",
        "replicas sequenced 2"), events, "the part that wrote is logged after its join; the one that wrote nothing"
        + " is not");
    replicas.held.forEach(Runnable::run);
    assertEquals(List.of(), answered, "the part's answer waits for its record");
    log.held.forEach(Runnable::run);
    assertEquals(List.of(1L, 2L), answered);
    assertEquals(true, pipeline.replicatesWork(), "parts are recorded even without replicas: the log keeps them");
  }

  @Test
  void shouldLogAPreparedPartBeforeItsPreparedAnswerAndItsDecisionAfterIt() {
    final List<String> events = new ArrayList<>();
    final Holding log = new Holding("log", events);
    final LoggedPipeline pipeline = new LoggedPipeline(log, new Holding("replicas", new ArrayList<>()));
    final List<Long> prepared = new ArrayList<>();
    pipeline.sequenced(header(1), ITEM);
    pipeline.prepare(header(1), PART, 42, () -> prepared.add(1L), r -> { });
    assertEquals(List.of("log sequenced 1", "log sequenced 1"), events, "the prepared part is logged after its join");
    assertEquals(List.of(), prepared, "the prepared answer waits for the part's record");
    log.held.forEach(Runnable::run);
    log.held.clear();
    assertEquals(List.of(1L), prepared);
    pipeline.decide(header(2), item(false, true), 42, () -> { });
    pipeline.sequenced(header(3), ITEM);
    pipeline.prepare(header(3), PART, 42, () -> { }, r -> { });
    pipeline.decide(header(4), item(false, false), 0, () -> { });
    pipeline.sequenced(header(5), ITEM);
    pipeline.prepare(header(5), PART, 0, () -> prepared.add(5L), r -> { });
    pipeline.decide(header(6), item(false, true), 0, () -> { });
    assertEquals(List.of("log sequenced 1", "log sequenced 1", "log sequenced 2", "log sequenced 3",
        "log sequenced 3", "log sequenced 4", "log sequenced 5"), events,
        "each decision on a logged part is logged, commit or roll back; a part that wrote nothing is not logged,"
        + " nor its decision");
    assertEquals(List.of(1L, 5L), prepared, "a part that wrote nothing is prepared at once");
  }

  @Test
  void shouldAnswerOnlyOnceTheLogAndTheReplicasBothReleased() {
    final List<String> events = new ArrayList<>();
    final Holding log = new Holding("log", events);
    final Holding replicas = new Holding("replicas", events);
    final LoggedPipeline pipeline = new LoggedPipeline(log, replicas);
    final List<Long> answered = new ArrayList<>();
    pipeline.sequenced(header(1), ITEM);
    pipeline.sequenced(header(2), ITEM);
    pipeline.release(header(1), ITEM, 42, () -> answered.add(1L));
    pipeline.release(header(2), ITEM, 43, () -> answered.add(2L));
    assertEquals(List.of("log sequenced 1", "replicas sequenced 1", "log sequenced 2", "replicas sequenced 2"),
        events, "the log sees each item first, in order");
    log.held.get(0).run();
    assertEquals(List.of(), answered, "on the leader's disk, not yet acknowledged by the replicas");
    replicas.held.get(1).run();
    assertEquals(List.of(), answered, "item 2 acknowledged, not yet on the leader's disk");
    replicas.held.get(0).run();
    assertEquals(List.of(1L), answered);
    log.held.get(1).run();
    assertEquals(List.of(1L, 2L), answered);
  }

  /** A replication pipeline that answers every response otherwise, as a deposed leader does. */
  private static final class Deposed implements CommitPipeline {
    @Override
    public void sequenced(TxnHeader header, SequencedItem item) {}

    @Override
    public void release(TxnHeader header, SequencedItem item, Runnable answer) {
      answer.run();
    }

    @Override
    public void release(TxnHeader header, SequencedItem item, long writeHash, ClientResponse response,
        Consumer<ClientResponse> done) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "deposed"));
    }
  }

  @Test
  void shouldSendTheReplicationsOutcomeOnceTheRecordIsOnDisk() {
    final Holding log = new Holding("log", new ArrayList<>());
    final LoggedPipeline pipeline = new LoggedPipeline(log, new Deposed());
    final List<ClientResponse> sent = new ArrayList<>();
    pipeline.release(header(1), ITEM, 42, ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "ran"), sent::add);
    assertEquals(List.of(), sent, "nothing leaves before the log released it");
    log.held.get(0).run();
    assertEquals(1, sent.size());
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, sent.get(0).errorCode(), "the deposed leader's word");
  }

  @Test
  void shouldPassAbortMarkersAndRefusalsThrough() {
    final List<String> events = new ArrayList<>();
    final Holding log = new Holding("log", events);
    final Holding replicas = new Holding("replicas", events);
    final LoggedPipeline pipeline = new LoggedPipeline(log, replicas);
    pipeline.aborted(header(3));
    assertEquals(List.of("log aborted 3", "replicas aborted 3"), events);
    assertNull(pipeline.refusal());
    replicas.refusal = "replicas refuse";
    assertEquals("replicas refuse", pipeline.refusal());
    log.refusal = "the disk is full";
    assertEquals("the disk is full", pipeline.refusal(), "a full disk is said first");
    assertEquals(ErrorCode.ERROR_CODE_DISK_FULL, pipeline.refusalCode());
    assertSame(replicas, pipeline.next());
  }

  @Test
  void shouldPassTheSiteRunningDryToTheReplicationPipeline() {
    final List<String> events = new ArrayList<>();
    final LoggedPipeline pipeline = new LoggedPipeline(new Holding("log", new ArrayList<>()),
        new Holding("replicas", events));
    pipeline.siteIdle();
    assertEquals(List.of("replicas site idle"), events,
        "the replication pipeline hands its items to its links when the site runs dry, behind a log too");
  }
}
