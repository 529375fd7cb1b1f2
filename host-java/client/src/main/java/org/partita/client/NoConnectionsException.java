package org.partita.client;

/**
 * No connection to any server is up (none was made, or all dropped and are
 * reconnecting). Nothing was sent.
 */
public final class NoConnectionsException extends RetriableException {
  public NoConnectionsException(String message) {
    super(message);
  }
}
