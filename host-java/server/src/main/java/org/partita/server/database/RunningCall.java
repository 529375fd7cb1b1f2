package org.partita.server.database;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.partita.proto.ErrorCode;
import org.partita.server.engine.PartitionEngine;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;

/**
 * The call a site (or the coordinator) is running now, so that
 * {@code @CancelQuery} can stop it (docs/system-procedures.md). A cancel
 * marks the call and asks the engines it runs on to stop their batch; the
 * running thread also checks the mark before each batch, so a cancel that
 * arrives between two batches of a procedure is not lost.
 *
 * <p>An engine forgets a request made before its batch starts (it clears
 * it then), so a request that lands between the running thread's check
 * and the engine's start of the batch would be lost and the batch would
 * run to its time limit. So once a call is cancelled, the request is made
 * again every {@link #REPEAT_MILLIS} ms until the call ends.
 *
 * <p>Thread model: {@link #begin}, {@link #end} and {@link #checkNotCancelled}
 * are called by the thread running the call; {@link #cancel} by any thread;
 * the repeated requests by one shared daemon thread. All state is guarded
 * by this object's lock, so a request can never reach an engine after its
 * call ended (the next call's batch would be stopped).
 */
final class RunningCall {
  /** How often a cancelled call's engines are asked again to stop, until it ends. */
  static final long REPEAT_MILLIS = 5;
  private static final ScheduledExecutorService REPEATER = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "partita-cancel-repeat");
    t.setDaemon(true);
    return t;
  });

  private final List<Runnable> stopRequests;
  private Invocation running;
  private boolean cancelled;
  private ScheduledFuture<?> repeating;

  /** @param stopRequests each asks one engine to stop the batch it runs now */
  RunningCall(List<Runnable> stopRequests) {
    this.stopRequests = List.copyOf(stopRequests);
  }

  /** A running call of batches on {@code engines} (null entries are skipped). */
  static RunningCall onEngines(List<PartitionEngine> engines) {
    return new RunningCall(engines.stream().filter(Objects::nonNull).<Runnable>map(engine -> engine::cancel).toList());
  }

  /** {@code invocation} starts running (null: work of no client call). */
  synchronized void begin(Invocation invocation) {
    stopRepeating();
    running = invocation;
    cancelled = false;
  }

  /** The call ended; a later cancel finds nothing, and its requests stop. */
  synchronized void end() {
    stopRepeating();
    running = null;
    cancelled = false;
  }

  /** Cancels the running call if it is client {@code clientId}'s. Returns it, or null when nothing matched. */
  synchronized Invocation cancel(long clientId) {
    return running != null && running.clientId() == clientId ? cancelRunning() : null;
  }

  /** Cancels the running call, whoever's. Returns it, or null when nothing runs. */
  synchronized Invocation cancelAny() {
    return running == null ? null : cancelRunning();
  }

  /** Whether the engines are being asked again to stop (a cancelled call still runs). */
  synchronized boolean repeating() {
    return repeating != null;
  }

  /** REQUIRES: holds this object's lock. */
  private Invocation cancelRunning() {
    cancelled = true;
    requestStop();
    if (repeating == null) {
      final Invocation cancelledCall = running;
      repeating = REPEATER.scheduleWithFixedDelay(() -> repeatFor(cancelledCall), REPEAT_MILLIS, REPEAT_MILLIS,
          TimeUnit.MILLISECONDS);
    }
    return running;
  }

  private synchronized void repeatFor(Invocation cancelledCall) {
    if (cancelled && running == cancelledCall && repeating != null) {
      requestStop();
    }
  }

  /** REQUIRES: holds this object's lock. */
  private void requestStop() {
    for (Runnable request : stopRequests) {
      request.run();
    }
  }

  /** REQUIRES: holds this object's lock. */
  private void stopRepeating() {
    if (repeating != null) {
      repeating.cancel(false);
      repeating = null;
    }
  }

  /** @throws ServerException CANCELLED when the running call was cancelled */
  synchronized void checkNotCancelled() {
    if (cancelled) {
      throw new ServerException(ErrorCode.ERROR_CODE_CANCELLED,
          "cancelled by @CancelQuery; the transaction was rolled back");
    }
  }
}
