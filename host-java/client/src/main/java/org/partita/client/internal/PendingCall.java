package org.partita.client.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClientException;
import org.partita.client.ProcedureCallback;

/**
 * One call from the moment its parameters were accepted until it completes:
 * what to send, when it times out, and whom to tell. Completed exactly once
 * — by the connection's event loop once it was handed over (a call in flight
 * lives in one connection's map, removed before completion), or by the
 * calling thread when it fails before being handed over.
 */
public final class PendingCall {
  private static final Logger LOG = Logger.getLogger(PendingCall.class.getName());

  final long handle;
  final String procedure;
  final Object[] parameters;
  final int parametersSize;
  final long timeoutNanos;
  /** The time limit the call asks the server for (timeout_millis; 0 = the server's default). */
  final int serverTimeoutMillis;
  private final CallStats stats;
  private final CallTracker tracker;
  private final CompletableFuture<ClientResponse> future;
  private final ProcedureCallback callback;
  int routedPlusOne;
  int invocationSize;
  long startNanos;
  long deadlineNanos;
  // Set when the server answered: what the callback is told.
  private long roundTripNanos;
  private Connection connection;
  /** How many times the call was sent again after a NOT_LEADER answer. */
  int resends;

  /** REQUIRES: exactly one of {@code future} and {@code callback} is non-null; {@code stats} may be null (internal calls). */
  public PendingCall(long handle, String procedure, Object[] parameters, long timeoutNanos, int serverTimeoutMillis,
      CallStats stats, CallTracker tracker, CompletableFuture<ClientResponse> future, ProcedureCallback callback) {
    this.serverTimeoutMillis = serverTimeoutMillis;
    this.handle = handle;
    this.procedure = procedure;
    this.parameters = parameters;
    this.parametersSize = CallEncoder.parametersSize(parameters);
    this.timeoutNanos = timeoutNanos;
    this.stats = stats;
    this.tracker = tracker;
    this.future = future;
    this.callback = callback;
    if (stats != null) {
      stats.started();
    }
  }

  public String procedure() {
    return procedure;
  }

  /** Fixes the partition the call was routed to (0: not routed). */
  void route(int partitionPlusOne) {
    routedPlusOne = partitionPlusOne;
    invocationSize = CallEncoder.invocationSize(handle, procedure, parametersSize, routedPlusOne,
        serverTimeoutMillis);
  }

  /** The call is handed to {@code owner}, which holds a permit for it; the clock starts. */
  void handOver(Connection owner, long nowNanos) {
    connection = owner;
    startNanos = nowNanos;
    deadlineNanos = nowNanos + timeoutNanos;
    tracker.started();
  }

  /** The size of the call's ClientMessage (the frame without its length prefix). REQUIRES: routed. */
  public int messageBytes() {
    return CallEncoder.messageSize(invocationSize);
  }

  /** The number of bytes the whole frame takes (length prefix included). */
  int frameBytes() {
    return CallEncoder.LENGTH_PREFIX_BYTES + CallEncoder.messageSize(invocationSize);
  }

  /** The server answered. */
  void answered(ClientResponse response, long nowNanos) {
    roundTripNanos = nowNanos - startNanos;
    if (stats != null) {
      stats.answered(response.status(), roundTripNanos);
    }
    finish(response, null);
  }

  /**
   * The server answered NOT_LEADER ("the call was not run"): the call lets
   * go of its connection without completing, to be sent again at the
   * partition's new leader. Returns how many times it was given back so far.
   */
  public int giveBack() {
    final Connection owner = connection;
    connection = null;
    if (owner != null) {
      owner.releasePermit();
      tracker.finished();
    }
    return ++resends;
  }

  /** How many times the call was sent again after a NOT_LEADER answer. */
  public int resends() {
    return resends;
  }

  /** The call failed on the client side. */
  public void fail(PartitaClientException failure, CallStats.Outcome outcome) {
    if (stats != null) {
      stats.failed(outcome);
    }
    finish(null, failure);
  }

  Duration timeout() {
    return Duration.ofNanos(timeoutNanos);
  }

  private void finish(ClientResponse response, Throwable failure) {
    final Connection owner = connection;
    if (owner != null) {
      owner.releasePermit();
    }
    try {
      deliver(response, failure);
    } finally {
      if (owner != null) {
        tracker.finished();
      }
    }
  }

  private void deliver(ClientResponse response, Throwable failure) {
    if (future != null) {
      if (failure == null) {
        future.complete(response);
      } else {
        future.completeExceptionally(failure);
      }
      return;
    }
    try {
      callback.onComplete(response, failure, roundTripNanos);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "callback of the call to " + procedure + " threw", e);
    }
  }
}
