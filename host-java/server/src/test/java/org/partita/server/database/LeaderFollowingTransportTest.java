package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.server.error.ServerException;
import org.partita.server.topology.PartitionMap;

/**
 * {@link LeaderFollowingTransport} without sockets: a message waits for its
 * answer until the map gives its partition another leader, then ends with
 * OUTCOME_UNKNOWN; a leader kept in a new epoch (its replica died) is still
 * waited for; a message to a host that no longer leads ends without
 * leaving.
 */
class LeaderFollowingTransportTest {
  /** The messages the transport under test sent, never answered unless a test answers them. */
  private final List<CompletableFuture<FragmentAnswer>> steps = new ArrayList<>();
  private final List<CompletableFuture<ForwardedAnswer>> forwards = new ArrayList<>();
  private final List<Integer> sentTo = new ArrayList<>();
  private final HostTransport silent = HostTransport.of((host, request) -> {
    sentTo.add(host);
    final CompletableFuture<FragmentAnswer> answer = new CompletableFuture<>();
    steps.add(answer);
    return answer;
  }, (host, call) -> {
    sentTo.add(host);
    final CompletableFuture<ForwardedAnswer> answer = new CompletableFuture<>();
    forwards.add(answer);
    return answer;
  });

  /** Three partitions on hosts 0, 1, 2 (each with its copy on the next host), in {@code epochs}, leaders given. */
  private static PartitionMap map(long version, int[] leaders, long[] epochs) {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      partitions.add(new PartitionMap.Replicas(p, leaders[p], List.of(leaders[p]), epochs[p]));
    }
    return PartitionMap.of(version, buckets, partitions);
  }

  private static FragmentRequest step(int partition) {
    return FragmentRequest.newBuilder().setPartition(partition).setCoordinatorHostId(0).build();
  }

  private static ServerException failure(CompletableFuture<?> answer) {
    assertTrue(answer.isCompletedExceptionally(), "ended");
    final ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
        answer::get);
    return assertInstanceOf(ServerException.class, e.getCause());
  }

  @Test
  void shouldEndAStepWithOutcomeUnknownWhenItsPartitionGetsAnotherLeader() throws Exception {
    final LeaderFollowingTransport transport = new LeaderFollowingTransport(silent,
        map(1, new int[] {0, 1, 2}, new long[] {1, 1, 1}));
    final CompletableFuture<FragmentAnswer> toOne = transport.send(1, step(1));
    final CompletableFuture<FragmentAnswer> toTwo = transport.send(2, step(2));
    assertEquals(2, transport.waiting());
    // Host 1 died: partition 1 moves to host 2; partition 2 keeps its leader in a new epoch (its copy died).
    transport.follow(map(2, new int[] {0, 2, 2}, new long[] {1, 2, 2}));
    final ServerException moved = failure(toOne);
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, moved.code());
    assertTrue(moved.getMessage().contains("partition 1 is led by host 2 in epoch 2") && moved.getMessage()
        .contains("no longer by host 1"), moved.getMessage());
    assertFalse(toTwo.isDone(), "host 2 still leads partition 2: its answer will come");
    steps.get(1).complete(FragmentAnswer.getDefaultInstance());
    assertTrue(toTwo.isDone() && !toTwo.isCompletedExceptionally());
    assertEquals(0, transport.waiting(), "answered and ended messages are forgotten");
  }

  @Test
  void shouldEndAForwardedCallWhenTheCoordinatorsHostLosesPartitionZero() {
    final LeaderFollowingTransport transport = new LeaderFollowingTransport(silent,
        map(1, new int[] {0, 1, 2}, new long[] {1, 1, 1}));
    final CompletableFuture<ForwardedAnswer> call = transport.forward(0, ForwardedCall.getDefaultInstance());
    transport.follow(map(2, new int[] {1, 1, 2}, new long[] {2, 1, 1}));
    final ServerException moved = failure(call);
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, moved.code());
    assertTrue(moved.getMessage().contains("forwarded"), moved.getMessage());
    // The next call goes to the new coordinator's host.
    final CompletableFuture<ForwardedAnswer> next = transport.forward(1, ForwardedCall.getDefaultInstance());
    assertFalse(next.isDone());
    assertEquals(List.of(0, 1), sentTo);
  }

  @Test
  void shouldEndAMessageToAFormerLeaderWithoutSendingIt() {
    final LeaderFollowingTransport transport = new LeaderFollowingTransport(silent,
        map(2, new int[] {0, 2, 2}, new long[] {1, 2, 2}));
    final ServerException moved = failure(transport.send(1, step(1)));
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, moved.code());
    assertTrue(sentTo.isEmpty(), "nothing left for the former leader");
    final ServerException unknown = failure(transport.send(1, step(7)));
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, unknown.code());
    assertTrue(unknown.getMessage().contains("partition 7"), unknown.getMessage());
  }

  @Test
  void shouldIgnoreAnOlderMap() {
    final LeaderFollowingTransport transport = new LeaderFollowingTransport(silent,
        map(2, new int[] {0, 2, 2}, new long[] {1, 2, 2}));
    final CompletableFuture<FragmentAnswer> toTwo = transport.send(2, step(1));
    transport.follow(map(1, new int[] {0, 1, 2}, new long[] {1, 1, 1}));
    assertFalse(toTwo.isDone(), "a stale map moves nothing");
    assertEquals(1, transport.waiting());
  }
}
