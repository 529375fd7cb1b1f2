package org.partita.server.dispatch;

/**
 * Runs calls for the server's front ends (the binary protocol, HTTP/JSON):
 * user procedures through the database's router, system procedures
 * ({@code @AdHoc}, {@code @Statistics}, ...) through their own code.
 *
 * <p>Thread-safe; calls may come from any thread (usually a network event
 * loop) and must not block it.
 */
public interface Dispatcher {
  /**
   * Runs {@code procedure(parameters)} and answers {@code handler} exactly
   * once, on any thread, with a response (never by throwing). Parameters
   * are Long, Double, BigDecimal, String, byte[], a timestamp (as
   * {@link java.time.Instant}) or null. Never throws; a call that cannot be
   * accepted (unknown procedure, shutting down) is answered REJECTED.
   */
  void dispatch(String procedure, Object[] parameters, ResponseHandler handler);
}
