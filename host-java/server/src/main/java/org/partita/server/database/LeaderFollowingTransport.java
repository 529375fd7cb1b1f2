package org.partita.server.database;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.server.error.ServerException;
import org.partita.server.topology.PartitionMap;

/**
 * A cluster host's {@link HostTransport} that follows failovers
 * (docs/cluster.md, "Multi-partition work across hosts"): every message
 * leaves for the host leading one partition — a coordinator's step for the
 * partition it names, a forwarded call for partition 0, whose leader is the
 * cluster's coordinator — and waits for its answer here. When
 * {@link #follow} is given a map in which that partition has another
 * leader, the answer will never come (the host is dead or deposed), so the
 * wait ends at once with {@code OUTCOME_UNKNOWN}: the message may or may
 * not have taken effect there. A message for a partition whose current
 * leader is not its destination ends the same way without leaving.
 *
 * <p>Thread-safe: messages from any thread, {@link #follow} from the thread
 * that follows the metadata; the futures complete on the transport's
 * threads or on the caller of {@link #follow}.
 */
final class LeaderFollowingTransport implements HostTransport {
  /** One message waiting for its answer from the leader of {@code partition}. */
  private record Waiting(int partition, int host, String what, CompletableFuture<?> answer) {}

  private final HostTransport inner;
  private final Object lock = new Object();
  // Guarded by lock.
  private PartitionMap map;
  private final Set<Waiting> waiting = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Sends through {@code inner}, following {@code map} until told a newer one. */
  LeaderFollowingTransport(HostTransport inner, PartitionMap map) {
    this.inner = inner;
    this.map = map;
  }

  @Override
  public CompletableFuture<FragmentAnswer> send(int host, FragmentRequest request) {
    return track(request.getPartition(), host, "the step of partition " + request.getPartition()
        + " in multi-partition transaction " + request.getTransaction().getEpoch() + ":"
        + request.getTransaction().getSequence(), () -> inner.send(host, request));
  }

  @Override
  public CompletableFuture<ForwardedAnswer> forward(int host, ForwardedCall call) {
    return track(0, host, "the call forwarded to the coordinator's host", () -> inner.forward(host, call));
  }

  /**
   * The map after a failover: every message waiting for a host that no
   * longer leads its partition in {@code next} ends with OUTCOME_UNKNOWN.
   * Maps older than the one followed are ignored.
   */
  void follow(PartitionMap next) {
    final List<Waiting> ended = new ArrayList<>();
    synchronized (lock) {
      if (next.version() < map.version()) {
        return;
      }
      map = next;
      for (Waiting w : waiting) {
        if (next.leaderOf(w.partition()) != w.host()) {
          ended.add(w);
        }
      }
      ended.forEach(waiting::remove);
    }
    for (Waiting w : ended) {
      w.answer().completeExceptionally(moved(w.partition(), w.host(), w.what(), next));
    }
  }

  /** Messages sent and not yet answered (tests). */
  int waiting() {
    synchronized (lock) {
      return waiting.size();
    }
  }

  private <T> CompletableFuture<T> track(int partition, int host, String what,
      Supplier<CompletableFuture<T>> send) {
    final CompletableFuture<T> answer = new CompletableFuture<>();
    final Waiting entry = new Waiting(partition, host, what, answer);
    synchronized (lock) {
      if (partition < 0 || partition >= map.partitionCount()) {
        return CompletableFuture.failedFuture(new ServerException(ErrorCode.ERROR_CODE_BAD_REQUEST, what
            + " names partition " + partition + ", which this cluster does not have"));
      }
      if (map.leaderOf(partition) != host) {
        return CompletableFuture.failedFuture(moved(partition, host, what, map));
      }
      waiting.add(entry);
    }
    final CompletableFuture<T> sent;
    try {
      sent = send.get();
    } catch (RuntimeException e) {
      forget(entry);
      answer.completeExceptionally(e);
      return answer;
    }
    sent.whenComplete((value, failure) -> {
      forget(entry);
      if (failure != null) {
        answer.completeExceptionally(failure);
      } else {
        answer.complete(value);
      }
    });
    return answer;
  }

  private void forget(Waiting entry) {
    synchronized (lock) {
      waiting.remove(entry);
    }
  }

  private static LeaderMovedException moved(int partition, int host, String what, PartitionMap map) {
    return new LeaderMovedException(partition, "partition " + partition + " is led by host "
        + map.leaderOf(partition) + " in epoch " + map.replicas(partition).epoch() + " (map version "
        + map.version() + "), no longer by host " + host + ": " + what + " sent to host " + host
        + " may or may not have taken effect there");
  }
}
