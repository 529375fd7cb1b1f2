package org.partita.client.internal;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.partita.client.ClientResponse;

/**
 * Calls sent again after a wait, of two kinds:
 *
 * <ul>
 *   <li><b>Unknown outcomes</b> (docs/java-client.md, "Calls sent again"): a
 *       procedure call whose connection was lost while it was in flight, or
 *       that a server answered OUTCOME_UNKNOWN, goes again, with the same
 *       session and handle, to its partition's leader as the cluster names
 *       it then (a multi-partition one to any host, which forwards it to the
 *       coordinator), after a short wait (50 ms, doubling up to 1 s), until
 *       it has an answer or its timeout (counted from its first sending) is
 *       spent; then it completes with OUTCOME_UNKNOWN. The servers run a
 *       call of a session at most once and answer a call sent again with the
 *       first answer, so sending again is safe. Only procedures of the
 *       catalog are sent again: calls the client routed to a partition
 *       (single-partition procedures) and multi-partition procedures, which
 *       the servers de-duplicate (docs/cluster.md, "Client de-duplication");
 *       system procedures, ad-hoc SQL and calls the client could not route
 *       are not sent again.</li>
 *   <li><b>Hosts behind the client's topology</b>: a routed call answered
 *       NOT_LEADER by a host that has not followed the topology the client
 *       routes by yet (hosts follow a new map some milliseconds apart; the
 *       client may hear of it first, from another host's push) was not run;
 *       it goes again to its partition's leader after 1 ms, doubling up to
 *       50 ms, at most {@link #MAX_BEHIND_WAITS} times and never past its
 *       timeout; then it completes with that NOT_LEADER answer.</li>
 * </ul>
 *
 * <p>Thread-safe; the waits run on one daemon thread of its own, made when
 * first needed. Closing ends every waiting call: an unknown outcome with
 * OUTCOME_UNKNOWN, a call a host behind refused with its NOT_LEADER answer.
 */
public final class DelayedResends {
  static final long FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);
  static final long BEHIND_FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  static final long BEHIND_MAX_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  /** Waits for a host behind the client's topology, at most, per call (about 2.8 s in all). */
  static final int MAX_BEHIND_WAITS = 60;

  private final Supplier<CompletableFuture<Void>> askLeaders;
  private final Consumer<PendingCall> send;
  // The calls waiting to be sent again; whoever removes one (its wait's end, or close) goes on with it.
  private final Map<PendingCall, Wait> waiting = new ConcurrentHashMap<>();
  private ScheduledExecutorService timer;
  private boolean closed;

  /** Why a call waits: its outcome is unknown (notLeader null), or the NOT_LEADER answer of a host behind. */
  private record Wait(ClientResponse notLeader) {
    static final Wait UNKNOWN = new Wait(null);
  }

  /**
   * @param askLeaders asks the cluster for its partitions' leaders; completes when answered, either way
   * @param send routes a call to its partition's leader and hands it over
   */
  public DelayedResends(Supplier<CompletableFuture<Void>> askLeaders, Consumer<PendingCall> send) {
    this.askLeaders = askLeaders;
    this.send = send;
  }

  /**
   * {@code call}'s outcome is unknown for {@code reason}: returns true when
   * it will be sent again (it let go of its connection), false when it is
   * not one to send again or its time is spent (the caller fails it).
   */
  public boolean resend(PendingCall call, String reason) {
    if (!call.sentAgainSafely() || call.deadlineNanos() == 0
        || call.deadlineNanos() - System.nanoTime() <= 0) {
      return false;
    }
    final ScheduledExecutorService t = timer();
    if (t == null) {
      return false;
    }
    call.unknownOutcome(reason);
    final long delay = Math.min(MAX_DELAY_NANOS, FIRST_DELAY_NANOS << Math.min(20, call.unknownResends() - 1));
    schedule(t, call, Wait.UNKNOWN, delay);
    return true;
  }

  /**
   * {@code call}, routed to a partition, was answered {@code notLeader} by a
   * host whose topology is older than the one the client routes by: returns
   * true when it will be sent again to the partition's leader after a short
   * wait (it let go of its connection), false when its waits or its time are
   * spent (the caller delivers the answer).
   */
  public boolean resendAfterHostCatchesUp(PendingCall call, ClientResponse notLeader) {
    if (call.routedPartitionPlusOne() == 0 || call.behindWaits() >= MAX_BEHIND_WAITS || call.deadlineNanos() == 0
        || call.deadlineNanos() - System.nanoTime() <= 0) {
      return false;
    }
    final ScheduledExecutorService t = timer();
    if (t == null) {
      return false;
    }
    call.waitForHostBehind();
    final long delay = Math.min(BEHIND_MAX_DELAY_NANOS,
        BEHIND_FIRST_DELAY_NANOS << Math.min(20, call.behindWaits() - 1));
    schedule(t, call, new Wait(notLeader), delay);
    return true;
  }

  /** Sends {@code call} again after {@code delayNanos}, or ends it at its deadline if that comes first. */
  private void schedule(ScheduledExecutorService t, PendingCall call, Wait wait, long delayNanos) {
    waiting.put(call, wait);
    final long left = call.deadlineNanos() - System.nanoTime();
    try {
      t.schedule(() -> sendAgain(call), Math.max(0, Math.min(delayNanos, left)), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile.
      final Wait removed = waiting.remove(call);
      if (removed != null) {
        end(call, removed, System.nanoTime());
      }
    }
  }

  /** Ends a call whose wait found no answer: OUTCOME_UNKNOWN, or the NOT_LEADER answer it waits after. */
  private static void end(PendingCall call, Wait wait, long nowNanos) {
    if (wait.notLeader() == null) {
      call.unknown(nowNanos);
    } else {
      call.answered(wait.notLeader(), nowNanos);
    }
  }

  private void sendAgain(PendingCall call) {
    final Wait wait = waiting.remove(call);
    if (wait == null) {
      return;  // ended by close
    }
    final long now = System.nanoTime();
    if (now - call.deadlineNanos() >= 0 || isClosed()) {
      end(call, wait, now);
      return;
    }
    if (wait.notLeader() != null) {
      send.accept(call);  // the client already routes by the newer topology
      return;
    }
    askLeaders.get().whenComplete((ignored, failure) -> send.accept(call));
  }

  private synchronized ScheduledExecutorService timer() {
    if (closed) {
      return null;
    }
    if (timer == null) {
      timer = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread thread = new Thread(r, "partita-client-resend");
        thread.setDaemon(true);
        return thread;
      });
    }
    return timer;
  }

  private synchronized boolean isClosed() {
    return closed;
  }

  /** Stops the waits: calls still waiting are not sent again (the client is closing). */
  public void close() {
    final ScheduledExecutorService t;
    synchronized (this) {
      closed = true;
      t = timer;
    }
    if (t != null) {
      t.shutdownNow();
    }
    final long now = System.nanoTime();
    for (PendingCall call : waiting.keySet()) {
      final Wait wait = waiting.remove(call);
      if (wait != null) {
        end(call, wait, now);
      }
    }
  }
}
