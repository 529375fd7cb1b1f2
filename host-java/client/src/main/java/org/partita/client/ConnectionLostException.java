package org.partita.client;

/**
 * The connection a call was sent on dropped (or was closed by the client)
 * before the server answered. The call may or may not have run.
 */
public final class ConnectionLostException extends RetriableException {
  public ConnectionLostException(String message) {
    super(message);
  }
}
