package org.partita.server.database;

import java.util.ArrayDeque;
import java.util.List;
import org.partita.client.ClientResponse;

/**
 * Calls for partitions this host is about to lead, held until it does
 * (docs/cluster.md, "Leader rebalancing"): a copy that leads next after a
 * failover with several survivors, or after a hand-off, first repairs with
 * the other copies (some milliseconds); a call that reaches the host
 * meanwhile waits here instead of being answered NOT_LEADER by a host the
 * new map names as the leader, which the client could only send back to the
 * same host. When the copy leads, the held calls go to its site in the order
 * they came; when it does not (the repair did not finish), each is refused.
 * At most {@link #MAX_HELD} calls per partition; past it calls are answered
 * as before. Thread-safe.
 */
final class HeldCalls {
  /** Calls held per partition at most. */
  static final int MAX_HELD = 10_000;

  /** Per partition, the calls held while its copy becomes the leader, or null when it is not expected to. */
  private final List<ArrayDeque<WorkItem>> held;

  HeldCalls(int partitions) {
    final ArrayDeque<WorkItem>[] none = new ArrayDeque[partitions];
    held = java.util.Arrays.asList(none);
  }

  /** From now on calls for {@code partition} are held until {@link #release} or {@link #refuse}. */
  synchronized void expect(int partition) {
    if (held.get(partition) == null) {
      held.set(partition, new ArrayDeque<>());
    }
  }

  /** Holds {@code call} for {@code partition}; false when the partition is not expected or holds the bound. */
  synchronized boolean hold(int partition, WorkItem call) {
    final ArrayDeque<WorkItem> calls = held.get(partition);
    if (calls == null || calls.size() >= MAX_HELD) {
      return false;
    }
    calls.add(call);
    return true;
  }

  /**
   * The copy of {@code partition} leads now on {@code site}: every held call
   * is queued there, in order (waiting for room), and calls are no longer
   * held. REQUIRES: the site is published as the partition's leader first,
   * so that a call not held from now on goes to it.
   */
  synchronized void release(int partition, Site site) {
    final ArrayDeque<WorkItem> calls = held.set(partition, null);
    if (calls != null) {
      calls.forEach(site::submit);
    }
  }

  /** The copy of {@code partition} will not lead: every held call is refused with {@code response}. */
  void refuse(int partition, ClientResponse response) {
    final ArrayDeque<WorkItem> calls;
    synchronized (this) {
      calls = held.set(partition, null);
    }
    if (calls != null) {
      calls.forEach(call -> call.refuse(response));
    }
  }
}
