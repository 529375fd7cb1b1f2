package org.partita.server.replication;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.ToLongFunction;
import org.partita.proto.txn.WorkItem;
import org.partita.server.txn.ReplicaExecutor;

/**
 * A replica copy's queue without a database: items wait until the test runs
 * them ({@link #runNext}), and "running" one gives the write hash
 * {@code hashOf} says. Bounded like a site's queue. Single-threaded.
 */
final class FakeExecutor implements ReplicaExecutor {
  private record Queued(WorkItem item, Done done) {}

  private final Deque<Queued> queue = new ArrayDeque<>();
  private final int capacity;
  private final ToLongFunction<WorkItem> hashOf;
  final List<Long> ran = new ArrayList<>();

  FakeExecutor(int capacity, ToLongFunction<WorkItem> hashOf) {
    this.capacity = capacity;
    this.hashOf = hashOf;
  }

  @Override
  public boolean offer(WorkItem item, Done done) {
    if (queue.size() >= capacity) {
      return false;
    }
    queue.add(new Queued(item, done));
    return true;
  }

  int queued() {
    return queue.size();
  }

  /** Runs the oldest queued item (as a site would); returns false when none is queued. */
  boolean runNext() {
    final Queued next = queue.poll();
    if (next == null) {
      return false;
    }
    if (next.done().cancelled()) {
      return true;
    }
    ran.add(next.item().getHeader().getSequence());
    next.done().ran(hashOf.applyAsLong(next.item()));
    return true;
  }

  void runAll() {
    while (runNext()) {
      // next
    }
  }
}
