package org.partita.client;

/**
 * Receives the outcome of one asynchronous call: exactly one of
 * {@code response} (any answer of the server, failures included) and
 * {@code failure} (a client-side failure, a {@link PartitaClientException})
 * is non-null. Called once, on a client I/O thread (or on the calling thread
 * when the call failed before it was sent): it must not block.
 */
@FunctionalInterface
public interface ProcedureCallback {
  void onComplete(ClientResponse response, Throwable failure);

  /**
   * {@link #onComplete(ClientResponse, Throwable)} with the call's round trip
   * as the client measured it (System.nanoTime from handing the call to its
   * connection to its answer; 0 for a client-side failure), what the client's
   * latency statistics record: override this one instead to time calls
   * without reading the clock again. By default it calls the two-argument form.
   */
  default void onComplete(ClientResponse response, Throwable failure, long roundTripNanos) {
    onComplete(response, failure);
  }
}
