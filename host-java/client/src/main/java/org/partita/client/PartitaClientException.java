package org.partita.client;

/**
 * The root of every exception the Partita client raises for a failure on the
 * client side of a call (the connection, the clock, the client's own
 * limits). An answer from the server, failures included, is never an
 * exception of this kind on the asynchronous paths: it is a
 * {@link ClientResponse}. Subclasses of {@link RetriableException} name
 * failures after which the same call may succeed if tried again.
 */
public class PartitaClientException extends RuntimeException {
  public PartitaClientException(String message) {
    super(message);
  }

  public PartitaClientException(String message, Throwable cause) {
    super(message, cause);
  }
}
