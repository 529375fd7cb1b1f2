package org.partita.server.dispatch;

import org.partita.server.security.Principal;
import org.partita.server.txn.Invocation;

/**
 * Runs calls for the server's front ends (the binary protocol, HTTP/JSON):
 * user procedures through the database's router, system procedures
 * ({@code @AdHoc}, {@code @Statistics}, ...) through their own code.
 *
 * <p>Thread-safe; calls may come from any thread (usually a network event
 * loop) and never block it.
 */
public interface Dispatcher {
  /**
   * Runs {@code invocation}. Returns false iff the call cannot be
   * accepted now because the queue it needs is full: nothing was run and
   * {@code handler} will not be called; the caller retries later and stops
   * reading new work meanwhile (backpressure). Otherwise returns true and
   * answers {@code handler} exactly once, on any thread (possibly this one,
   * before returning), with a response — failures included, never by
   * throwing.
   *
   * <p>The invocation carries its parameters as the bytes the client sent;
   * the site that runs the call decodes them.
   */
  boolean dispatch(Invocation invocation, ResponseHandler handler);

  /**
   * {@link #dispatch(Invocation, ResponseHandler)} on behalf of {@code caller}:
   * when security is on, a call the caller's roles do not allow is answered
   * REJECTED PERMISSION_DENIED naming the permission, without running
   * (docs/security.md). The two-argument form runs unchecked, as
   * {@link Principal#UNCHECKED}. Implementations that enforce security
   * override this; the default (test doubles) ignores the caller.
   */
  default boolean dispatch(Invocation invocation, Principal caller, ResponseHandler handler) {
    return dispatch(invocation, handler);
  }
}
