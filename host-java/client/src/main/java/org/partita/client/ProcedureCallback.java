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
}
