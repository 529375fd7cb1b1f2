package org.partita.server.security;

/**
 * A login that fails. The message is for the server's log only: clients
 * are told nothing more than that authentication failed, so that no answer
 * says which half of the credentials was wrong.
 */
public final class AuthenticationException extends Exception {
  public AuthenticationException(String reasonForTheLog) {
    super(reasonForTheLog);
  }
}
