package org.partita.client.internal;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Sends again the calls whose outcome became unknown (docs/java-client.md,
 * "Calls sent again"): a procedure call whose connection was lost
 * while it was in flight, or that a server answered OUTCOME_UNKNOWN, goes
 * again, with the same session and handle, to its partition's leader as the
 * cluster names it then (a multi-partition one to any host, which forwards
 * it to the coordinator), after a short wait (50 ms, doubling up to 1 s),
 * until it has an answer or its timeout (counted from its first sending)
 * is spent; then it completes with OUTCOME_UNKNOWN. The servers run a call
 * of a session at most once and answer a call sent again with the first
 * answer, so sending again is safe.
 *
 * <p>Only procedures of the catalog are sent again: calls the client routed
 * to a partition (single-partition procedures) and multi-partition
 * procedures, which the servers de-duplicate (docs/cluster.md, "Client
 * de-duplication"); system procedures, ad-hoc SQL and calls the client
 * could not route are not sent again.
 *
 * <p>Thread-safe; the waits run on one daemon thread of its own, made when
 * first needed.
 */
public final class UnknownOutcomes {
  static final long FIRST_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final Supplier<CompletableFuture<Void>> askLeaders;
  private final Consumer<PendingCall> send;
  // The calls waiting to be sent again; whoever removes one (its wait's end, or close) goes on with it.
  private final Set<PendingCall> waiting = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService timer;
  private boolean closed;

  /**
   * @param askLeaders asks the cluster for its partitions' leaders; completes when answered, either way
   * @param send routes a call to its partition's leader and hands it over
   */
  public UnknownOutcomes(Supplier<CompletableFuture<Void>> askLeaders, Consumer<PendingCall> send) {
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
    waiting.add(call);
    final long delay = Math.min(MAX_DELAY_NANOS, FIRST_DELAY_NANOS << Math.min(20, call.unknownResends() - 1));
    final long left = call.deadlineNanos() - System.nanoTime();
    try {
      t.schedule(() -> sendAgain(call), Math.max(0, Math.min(delay, left)), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile.
      if (waiting.remove(call)) {
        call.unknown(System.nanoTime());
      }
    }
    return true;
  }

  private void sendAgain(PendingCall call) {
    if (!waiting.remove(call)) {
      return;  // ended by close
    }
    final long now = System.nanoTime();
    if (now - call.deadlineNanos() >= 0 || isClosed()) {
      call.unknown(now);
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
    for (PendingCall call : waiting) {
      if (waiting.remove(call)) {
        call.unknown(now);
      }
    }
  }
}
