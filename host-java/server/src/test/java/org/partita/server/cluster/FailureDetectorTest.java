package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.MarkDead;
import org.partita.proto.cluster.MetadataSnapshot;

/**
 * Which hosts the metadata leader declares dead, on a clock the test moves:
 * silence past the timeout from the last heartbeat of the current
 * incarnation, counted from the election at the earliest; never itself
 * (an earlier incarnation of its host id is another host),
 * never a host already dead, nothing while not leading.
 */
class FailureDetectorTest {
  private static final long TIMEOUT = TimeUnit.SECONDS.toNanos(3);

  private long now = TimeUnit.SECONDS.toNanos(100);
  private final HeartbeatTable heartbeats = new HeartbeatTable();
  private final FailureDetector detector = new FailureDetector(0, 10, heartbeats, TIMEOUT, () -> now);

  private static MetadataSnapshot hosts(HostRecord... records) {
    return MetadataSnapshot.newBuilder().addAllHosts(List.of(records)).build();
  }

  private static HostRecord up(int id, long incarnation) {
    return HostRecord.newBuilder().setHostId(id).setIncarnation(incarnation).setState(HostState.HOST_STATE_UP)
        .build();
  }

  private static List<Integer> ids(List<MarkDead> due) {
    return due.stream().map(MarkDead::getHostId).toList();
  }

  @Test
  void shouldDeclareNothingWhileNotLeading() {
    now += 10 * TIMEOUT;
    assertEquals(List.of(), detector.due(hosts(up(1, 11))));
  }

  @Test
  void shouldCountSilenceFromTheElectionThenFromTheLastHeartbeat() {
    heartbeats.record(1, 11, now - 10 * TIMEOUT); // heard long before this voter led
    detector.becameLeader(-1);
    final MetadataSnapshot state = hosts(up(0, 10), up(1, 11), up(2, 12));
    now += TIMEOUT;
    heartbeats.record(2, 12, now);
    assertEquals(List.of(), detector.due(state), "silence counts from the election");
    now += 1;
    assertEquals(List.of(1), ids(detector.due(state)), "host 1 silent since the election; host 0 is this one");
    now += TIMEOUT;
    assertEquals(List.of(1, 2), ids(detector.due(state)));
    assertEquals(11, detector.due(state).get(0).getIncarnation());
  }

  /**
   * A rejoining voter (this detector, host 0's incarnation 10) can lead the
   * metadata group while the group still lists its host's previous
   * incarnation up: nothing else declares that one dead then, so it does,
   * once the timeout passed; its own incarnation is never due.
   */
  @Test
  void shouldDeclareAPreviousIncarnationOfItsOwnHostDeadButNeverItself() {
    detector.becameLeader(-1);
    final MetadataSnapshot before = hosts(up(0, 4), up(1, 11));
    heartbeats.record(1, 11, now + TIMEOUT);
    now += TIMEOUT + 1;
    assertEquals(List.of(0), ids(detector.due(before)), "host 0's incarnation 4 was not heard since the election");
    assertEquals(4, detector.due(before).get(0).getIncarnation());
    now += 10 * TIMEOUT;
    heartbeats.record(1, 11, now);
    assertEquals(List.of(), detector.due(hosts(up(0, 10), up(1, 11))), "this detector's own incarnation");
  }

  @Test
  void shouldCountARejoinedIncarnationsSilenceFromWhenItWasFirstSeen() {
    detector.becameLeader(-1);
    heartbeats.record(1, 11, now);
    assertEquals(List.of(), detector.due(hosts(up(1, 11))));
    now += 10 * TIMEOUT;
    // Incarnation 11 died long ago; 21 registered (rejoin) before its first heartbeat reached this voter.
    final MetadataSnapshot back = hosts(up(1, 21));
    assertEquals(List.of(), detector.due(back), "silence of the new incarnation counts from now");
    now += TIMEOUT;
    assertEquals(List.of(), detector.due(back));
    now += 1;
    assertEquals(List.of(1), ids(detector.due(back)), "never heard for the whole timeout since it was seen");
    assertEquals(21, detector.due(back).get(0).getIncarnation());
  }

  @Test
  void shouldCountThePreviousLeadersSilenceFromItsLastHeartbeat() {
    final MetadataSnapshot state = hosts(up(0, 10), up(1, 11), up(2, 12));
    heartbeats.record(1, 11, now); // host 1 led the group and was heard; then it died
    heartbeats.record(2, 12, now);
    now += TIMEOUT / 2; // the election: this voter leads
    detector.becameLeader(1);
    now += TIMEOUT / 2;
    assertEquals(List.of(), detector.due(state), "heard exactly the timeout ago: not yet");
    now += 1;
    assertEquals(List.of(1), ids(detector.due(state)),
        "the previous leader counts from its last heartbeat; host 2 from the election");
  }

  @Test
  void shouldCountAKilledIncarnationFromItsLastHeartbeatWhileItsSuccessorHeartbeatsUnregistered() {
    detector.becameLeader(-1);
    final MetadataSnapshot state = hosts(up(1, 11));
    heartbeats.record(1, 11, now);
    now += TIMEOUT / 2;
    // Killed and started again at once: the new incarnation heartbeats before it registers.
    heartbeats.record(1, 21, now);
    now += TIMEOUT / 2;
    heartbeats.record(1, 21, now);
    assertEquals(List.of(), detector.due(state));
    now += 1;
    assertEquals(List.of(1), ids(detector.due(state)), "incarnation 11 silent for the timeout");
    assertEquals(11, detector.due(state).get(0).getIncarnation());
  }

  @Test
  void shouldTreatAHeartbeatOfAnotherIncarnationAsSilence() {
    detector.becameLeader(-1);
    now += TIMEOUT + 1;
    heartbeats.record(1, 99, now);
    assertEquals(List.of(1), ids(detector.due(hosts(up(1, 11)))));
  }

  @Test
  void shouldSkipDeadHostsAndStopWhenLeadershipIsLost() {
    detector.becameLeader(-1);
    now += 2 * TIMEOUT;
    final HostRecord dead = up(2, 12).toBuilder().setState(HostState.HOST_STATE_DEAD).build();
    assertEquals(List.of(1), ids(detector.due(hosts(up(1, 11), dead))));
    detector.lostLeadership();
    assertEquals(List.of(), detector.due(hosts(up(1, 11), dead)));
  }
}
