package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.RejoinChunk;
import org.partita.proto.cluster.RejoinItems;
import org.partita.proto.cluster.RejoinStart;

/**
 * The rejoin stream's two sides without sockets (docs/cluster.md, "Rejoin"):
 * a leader's {@link RejoinStream} and a joining host's {@link RejoinSession},
 * the frames carried between them by hand, the copy and its site faked.
 */
class RejoinTest {
  private static final int PARTITION = 2;
  private static final int LEADER = 0;
  private static final int JOINER = 1;
  private static final long INCARNATION = 21;

  /** A joining copy that records what it is given and loads when the test says. */
  private static final class FakeCopy implements RejoinSession.Copy {
    final List<RejoinStart> starts = new ArrayList<>();
    final List<byte[]> chunks = new ArrayList<>();
    RejoinSession.Loaded loaded;
    boolean ended;

    @Override
    public void beginLoad(RejoinStart start, RejoinSession.Loaded loaded) {
      starts.add(start);
      chunks.clear();
      ended = false;
      this.loaded = loaded;
    }

    @Override
    public void chunk(byte[] chunk) {
      chunks.add(chunk);
    }

    @Override
    public void endLoad() {
      ended = true;
    }

    /** Loads every chunk given so far, and ends the load if the last came. */
    void loadAll() {
      for (int i = 0; i < chunks.size(); i++) {
        loaded.chunkLoaded();
      }
      chunks.clear();
      if (ended) {
        loaded.done();
      }
    }
  }

  private final FakeExecutor executor = new FakeExecutor(64, item -> hash(item.getHeader().getSequence()));
  private final FakeCopy copy = new FakeCopy();
  private final RejoinSession session = new RejoinSession(PARTITION, JOINER, INCARNATION, copy, executor, h -> { });

  private static long hash(long sequence) {
    return 1000 + sequence;
  }

  private static RejoinStart start(long epoch, long snapshotSequence) {
    return RejoinStart.newBuilder().setPartition(PARTITION).setEpoch(epoch).setLeaderHostId(LEADER)
        .setJoinerIncarnation(INCARNATION).setSnapshotSequence(snapshotSequence).build();
  }

  private static RejoinStream stream(long epoch, long snapshotSequence) {
    return new RejoinStream(JOINER, start(epoch, snapshotSequence), h -> { });
  }

  /** Carries every frame each side has for the other until neither has any. */
  private void carry(RejoinStream stream) {
    boolean moved = true;
    while (moved) {
      moved = false;
      for (InternalFrame f = stream.drain(JOINER); f != null; f = stream.drain(JOINER)) {
        moved = true;
        final String refused = switch (f.getFrameCase()) {
          case REJOIN_START -> session.start(f.getRejoinStart());
          case REJOIN_CHUNK -> session.chunk(f.getRejoinChunk());
          case REJOIN_ITEMS -> session.items(f.getRejoinItems());
          default -> "unexpected " + f.getFrameCase();
        };
        assertNull(refused);
      }
      for (InternalFrame f = session.drain(LEADER); f != null; f = session.drain(LEADER)) {
        moved = true;
        assertNull(stream.progress(f.getRejoinProgress()));
      }
    }
  }

  @Test
  void shouldLoadTheSnapshotThenRunEveryItemAfterItAndHandOverAtTheEpochsEnd() {
    final RejoinStream stream = stream(3, 5);
    assertTrue(stream.takesChunk());
    stream.chunk(new byte[] {1, 2}, 2_000_000, 1_000_000);
    stream.chunk(new byte[] {3}, 4_000_000, 3_000_000);
    stream.snapshotFinished();
    for (long s = 6; s <= 9; s++) {
      stream.forward(TestItems.replicated(PARTITION, 3, s, s == 7 ? 0 : hash(s)));
    }
    carry(stream);
    assertEquals(2, copy.chunks.size(), "two chunks; the last, empty, only ends the load");
    assertTrue(copy.ended);
    assertEquals(0, executor.queued(), "nothing runs before the snapshot is in");
    assertFalse(stream.caughtUp(1_000));
    copy.loadAll();
    assertEquals(3, executor.queued(), "items 6, 8, 9; 7 is a marker");
    executor.runAll();
    carry(stream);
    assertEquals(List.of(6L, 8L, 9L), executor.ran);
    assertEquals(9, session.progress().getExecutedSequence());
    assertTrue(stream.caughtUp(0));
    assertFalse(session.handedOver(), "the epoch goes on");
    stream.forward(TestItems.replicated(PARTITION, 3, 10, hash(10)));
    stream.endEpoch();
    stream.forward(TestItems.replicated(PARTITION, 3, 11, hash(11)));
    carry(stream);
    assertTrue(session.handedOver(), "item 10 was the epoch's last, and it is queued");
    assertFalse(stream.drainedEpoch());
    executor.runAll();
    carry(stream);
    assertTrue(stream.drainedEpoch());
    assertEquals(List.of(6L, 8L, 9L, 10L), executor.ran, "nothing forwarded after the epoch's end");
    assertEquals(4_000_000, stream.longestPauseNanos());
    assertEquals(3_000_000, stream.longestPauseCpuNanos());
    assertEquals(3, stream.bytesMade());
    assertEquals(2, session.progress().getChunksLoaded());
    assertNull(stream.ended());
  }

  @Test
  void shouldMakeChunksOnlyWithinTheJoinersWindow() {
    final RejoinStream stream = stream(3, 0);
    for (int i = 0; i < RejoinStream.WINDOW_CHUNKS; i++) {
      assertTrue(stream.takesChunk(), "chunk " + i);
      stream.chunk(new byte[] {(byte) i}, 1, 1);
    }
    assertFalse(stream.takesChunk(), "the window is full until the joiner loads some");
    carry(stream);
    assertFalse(stream.takesChunk(), "sent is not loaded");
    copy.loadAll();
    carry(stream);
    assertTrue(stream.takesChunk());
    assertEquals(RejoinStream.WINDOW_CHUNKS, session.progress().getChunksLoaded());
  }

  @Test
  void shouldStartOverOnANewStartAndIgnoreTheOldAttempt() {
    final RejoinStream first = stream(3, 5);
    first.chunk(new byte[] {1}, 1, 1);
    first.snapshotFinished();
    first.forward(TestItems.replicated(PARTITION, 3, 6, hash(6)));
    carry(first);
    copy.loadAll();
    assertEquals(1, executor.queued());
    final RejoinSession.Loaded oldLoad = copy.loaded;
    // A leader change: the metadata moved the partition; a new leader streams in epoch 4.
    session.abort("partition 2 moved to epoch 4 led by host 2");
    assertEquals(0, session.epoch());
    final RejoinStream second = new RejoinStream(JOINER, start(4, 8).toBuilder().setLeaderHostId(2).build(),
        h -> { });
    assertNull(session.start(second.start()));
    assertEquals(2, session.attempts());
    assertEquals(2, copy.starts.size(), "the copy was emptied and loads again");
    executor.runAll();
    oldLoad.done();
    assertEquals(8, session.progress().getExecutedSequence(), "the first attempt's news changes nothing");
    assertEquals(4, session.progress().getEpoch());
    assertTrue(executor.ran.isEmpty(), "the old attempt's queued item was dropped, not run");
  }

  @Test
  void shouldFailTheAttemptAndEndTheStreamOnAWriteHashMismatch() {
    final FakeExecutor wrong = new FakeExecutor(64, item -> 5);
    final RejoinSession diverging = new RejoinSession(PARTITION, JOINER, INCARNATION, copy, wrong, h -> { });
    final RejoinStream stream = stream(3, 0);
    stream.snapshotFinished();
    stream.forward(TestItems.replicated(PARTITION, 3, 1, hash(1)));
    stream.forward(TestItems.replicated(PARTITION, 3, 2, hash(2)));
    assertNull(diverging.start(stream.start()));
    stream.drain(JOINER);
    assertNull(diverging.chunk(stream.drain(JOINER).getRejoinChunk()));
    assertNull(diverging.items(stream.drain(JOINER).getRejoinItems()));
    copy.loadAll();
    wrong.runAll();
    assertTrue(diverging.failure().contains("ran here with write hash 5 but on its leader with 3e9"),
        diverging.failure());
    assertEquals(List.of(1L), wrong.ran, "nothing runs after the mismatch");
    assertNull(stream.progress(diverging.drain(LEADER).getRejoinProgress()));
    assertTrue(stream.ended().startsWith("the joining host failed: rejoin item (epoch 3, sequence 1)"));
    assertTrue(stream.cancelled(), "the site drops the snapshot");
    assertFalse(stream.caughtUp(1_000));
    assertNull(stream.drain(JOINER));
  }

  @Test
  void shouldRefuseFramesOutOfOrderOrOfAnotherStream() {
    final RejoinChunk chunk = RejoinChunk.newBuilder().setPartition(PARTITION).setEpoch(3).setIndex(0).build();
    assertEquals("a rejoin frame of partition 2 epoch 3 without its start", session.chunk(chunk));
    assertEquals("a rejoin stream of partition 2 for incarnation 20, but this session is of partition 2 for "
        + "incarnation 21", session.start(start(3, 0).toBuilder().setJoinerIncarnation(20).build()));
    assertNull(session.start(start(3, 5)));
    assertEquals("rejoin chunk 1 of partition 2 where chunk 0 was due",
        session.chunk(chunk.toBuilder().setIndex(1).build()));
    assertEquals("a rejoin frame of partition 2 epoch 2 in a stream of epoch 3",
        session.chunk(chunk.toBuilder().setEpoch(2).build()));
    assertEquals("rejoin item 7 of partition 2 after 5: items are missing or repeated",
        session.items(RejoinItems.newBuilder().setPartition(PARTITION).setEpoch(3)
            .addItems(TestItems.replicated(PARTITION, 3, 7, hash(7))).build()));
    assertEquals("a rejoin item of partition 2 epoch 2 in the stream of partition 2 epoch 3",
        session.items(RejoinItems.newBuilder().setPartition(PARTITION).setEpoch(3)
            .addItems(TestItems.replicated(PARTITION, 2, 6, hash(6))).build()));
    final RejoinStream stream = stream(3, 5);
    assertTrue(stream.progress(session.progress().toBuilder().setJoinerIncarnation(20).build())
        .startsWith("rejoin progress of partition 2 epoch 3 incarnation 20 for a stream"));
    assertNull(stream.progress(session.progress()));
    stream.forward(TestItems.replicated(PARTITION, 3, 7, hash(7)));
    assertEquals("the leader forwarded item 7 of epoch 3 after 5 of epoch 3", stream.ended());
  }

  @Test
  void shouldEndTheStreamWhenTheConnectionIsOpenedAgain() {
    final RejoinStream stream = stream(3, 0);
    stream.reconnected(JOINER);
    assertNull(stream.ended(), "nothing was sent yet");
    assertTrue(stream.drain(JOINER).hasRejoinStart());
    stream.reconnected(2);
    assertNull(stream.ended(), "another host's connection");
    stream.reconnected(JOINER);
    assertEquals("the connection to the joining host was opened again: what was sent may be lost", stream.ended());
    assertFalse(stream.takesChunk());
  }
}
