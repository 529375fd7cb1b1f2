package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * The metadata leader's detection loop, one tick at a time on a clock the
 * test moves and a commit the test records (no Ratis, no sockets): nothing
 * is committed while the voter does not lead; once it leads, a host silent
 * past the timeout is declared dead with its incarnation, a refused or
 * failed commit is survived, and leadership lost stops the declarations.
 */
class FailureDetectionTest {
  private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(3);

  private long now = TimeUnit.SECONDS.toNanos(100);
  private boolean leading;
  private int leaderSeen = -1;
  private MetadataSnapshot state = MetadataSnapshot.newBuilder().addHosts(up(0, 10)).addHosts(up(1, 11))
      .addHosts(up(2, 12)).build();
  private final List<MetadataCommand> committed = new ArrayList<>();
  private boolean failCommits;
  private final HeartbeatTable heartbeats = new HeartbeatTable();
  private final FailureDetection detection = new FailureDetection(
      new FailureDetector(0, 10, heartbeats, TIMEOUT, () -> now), () -> leading, () -> leaderSeen, () -> state,
      this::commit);

  private static HostRecord up(int id, long incarnation) {
    return HostRecord.newBuilder().setHostId(id).setIncarnation(incarnation).setState(HostState.HOST_STATE_UP)
        .build();
  }

  private MetadataReply commit(MetadataCommand command) throws IOException {
    if (failCommits) {
      throw new IOException("no leader");
    }
    committed.add(command);
    return MetadataReply.newBuilder().setApplied(true).build();
  }

  @Test
  void shouldCommitMarkDeadOnlyWhileLeadingAndOnlyForSilentHosts() {
    now += 10 * TIMEOUT;
    detection.tick();
    assertEquals(List.of(), committed, "not leading: nothing");
    leading = true;
    detection.tick();
    now += TIMEOUT / 2;
    heartbeats.record(2, 12, now);
    now += TIMEOUT / 2 + 1;
    detection.tick();
    assertEquals(1, committed.size(), "host 1 silent since the election; host 2 heard");
    assertEquals(1, committed.get(0).getMarkDead().getHostId());
    assertEquals(11, committed.get(0).getMarkDead().getIncarnation());
  }

  @Test
  void shouldCountTheLeaderItSawBeforeItsElectionFromThatLeadersLastHeartbeat() {
    heartbeats.record(1, 11, now);
    heartbeats.record(2, 12, now);
    leaderSeen = 1;
    detection.tick(); // a follower of host 1
    leaderSeen = -1; // host 1 died: an election, no leader known
    now += TIMEOUT / 2;
    detection.tick();
    leading = true;
    leaderSeen = 0;
    detection.tick();
    assertEquals(List.of(), committed);
    now += TIMEOUT / 2 + 1;
    detection.tick();
    assertEquals(1, committed.size(), "host 1, the old leader, silent for the timeout; host 2 counted from the election");
    assertEquals(1, committed.get(0).getMarkDead().getHostId());
  }

  @Test
  void shouldSurviveAFailedCommitAndStopWhenLeadershipIsLost() {
    leading = true;
    detection.tick();
    now += TIMEOUT + 1;
    failCommits = true;
    detection.tick();
    assertEquals(List.of(), committed);
    failCommits = false;
    leading = false;
    detection.tick();
    now += TIMEOUT;
    detection.tick();
    assertEquals(List.of(), committed, "a voter that lost leadership declares nothing");
    leading = true;
    detection.tick();
    now += TIMEOUT + 1;
    detection.tick();
    assertEquals(2, committed.size(), "leading again, silence counts from the new election: hosts 1 and 2");
  }
}
