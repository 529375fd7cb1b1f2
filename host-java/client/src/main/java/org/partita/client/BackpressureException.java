package org.partita.client;

/**
 * The connection chosen for a call already had the configured maximum of
 * calls in flight ({@link ClientConfig#maxInFlightPerConnection()}) and none
 * finished within {@link ClientConfig#backpressureTimeout()}. Nothing was sent.
 */
public final class BackpressureException extends RetriableException {
  public BackpressureException(String message) {
    super(message);
  }
}
