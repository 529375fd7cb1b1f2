package org.partita.client;

/**
 * A client-side failure after which the same call may succeed when tried
 * again (later, or on another connection). Note that a call that failed this
 * way may still have run on the server: a timeout or a lost connection says
 * nothing about whether the transaction committed.
 */
public abstract class RetriableException extends PartitaClientException {
  protected RetriableException(String message) {
    super(message);
  }

  protected RetriableException(String message, Throwable cause) {
    super(message, cause);
  }
}
