package org.partita.client;

/**
 * The server refused the login (another protocol version, shutting down);
 * the message is the server's. Thrown by {@link PartitaClient#connect(String)}.
 */
public final class LoginRefusedException extends PartitaClientException {
  public LoginRefusedException(String message) {
    super(message);
  }
}
