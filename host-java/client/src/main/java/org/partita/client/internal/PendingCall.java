package org.partita.client.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClientException;
import org.partita.client.ProcedureCallback;
import org.partita.proto.ErrorCode;

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
  /** Set at routing: a multi-partition procedure of the catalog (the servers run it once per session and handle). */
  volatile boolean multiPartitionProcedure;
  int invocationSize;
  long startNanos;
  long deadlineNanos;
  // Set when the server answered: what the callback is told.
  private long roundTripNanos;
  private Connection connection;
  /** The client's bound on calls in flight this call holds room in until it completes, or null. */
  private Semaphore clientRoom;
  /** How many times the call was sent again after a NOT_LEADER answer. */
  int resends;
  /**
   * For a call the client cannot route to a partition: the round-robin slot
   * of its first send, or -1 before it; each NOT_LEADER resend takes the next
   * connection from there, so the resends try every host in turn.
   */
  int unroutedSlot = -1;
  // Set once the call's outcome became unknown and it is being sent again (why, for the final report).
  private volatile String unknownReason;
  private volatile int unknownResends;
  /** How many times the call waited for a host behind the client's topology (DelayedResends). */
  private volatile int behindWaits;

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
    if (startNanos == 0) {
      // Sent again (NOT_LEADER, outcome unknown): its first deadline stays.
      startNanos = nowNanos;
      deadlineNanos = nowNanos + timeoutNanos;
    }
    tracker.started();
  }

  /** When the call's time is up (its first hand-over plus its timeout); 0 before it was handed over. */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  /**
   * Whether the call is one the servers de-duplicate, so it may be sent
   * again when its outcome is unknown: routed to a partition (a
   * single-partition procedure), or a multi-partition procedure.
   */
  public boolean sentAgainSafely() {
    return routedPlusOne != 0 || multiPartitionProcedure;
  }

  /** The partition the call was routed to, plus one (0: not routed to a partition). */
  public int routedPartitionPlusOne() {
    return routedPlusOne;
  }

  /**
   * The call's outcome is unknown for {@code reason}: it lets go of its
   * connection without completing, to be sent again with the same handle.
   */
  public void unknownOutcome(String reason) {
    unknownReason = reason;
    unknownResends++;
    letGo();
  }

  /**
   * A host behind the client's topology answered NOT_LEADER (the call was
   * not run): it lets go of its connection without completing, to be sent
   * again once that host follows; not counted as a NOT_LEADER resend.
   */
  public void waitForHostBehind() {
    behindWaits++;
    letGo();
  }

  /** How many times the call waited for a host behind the client's topology. */
  public int behindWaits() {
    return behindWaits;
  }

  /** How many times the call's outcome became unknown (each followed by a resend, or its report). */
  public int unknownResends() {
    return unknownResends;
  }

  /** Why the call's outcome became unknown, or null while it is not. */
  public String unknownReason() {
    return unknownReason;
  }

  /**
   * Sending the call again did not settle it within its time: it completes
   * with an OUTCOME_UNKNOWN answer (it may have run, once).
   */
  public void unknown(long nowNanos) {
    final ClientResponse response = ClientResponse.failure(ClientResponse.Status.UNEXPECTED_FAILURE,
        ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "the call to " + procedure + " may have run (at most once): "
            + unknownReason + "; sending it again found no answer within its timeout of "
            + Duration.ofNanos(timeoutNanos).toMillis() + " ms");
    roundTripNanos = nowNanos - startNanos;
    if (stats != null) {
      stats.answered(response.status(), roundTripNanos);
    }
    finish(response, null);
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
    letGo();
    return ++resends;
  }

  /** Leaves the connection the call was handed to (giving its permit back) without completing. */
  private void letGo() {
    final Connection owner = connection;
    connection = null;
    if (owner != null) {
      owner.releasePermit();
      tracker.finished();
    }
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

  /** The call holds room in {@code room} (the client's bound on calls in flight), given back when it completes. */
  public void holdsRoomIn(Semaphore room) {
    clientRoom = room;
  }

  private void finish(ClientResponse response, Throwable failure) {
    final Connection owner = connection;
    if (owner != null) {
      owner.releasePermit();
    }
    // Before the callback runs, so that it can make the next call.
    final Semaphore room = clientRoom;
    clientRoom = null;
    if (room != null) {
      room.release();
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
