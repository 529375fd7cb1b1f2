package org.partita.server.network;

/**
 * A client broke the wire protocol (undecodable frame, a second login, an
 * invocation before login): the connection is closed after logging the
 * message, which says what was wrong.
 */
final class ProtocolException extends Exception {
  private static final long serialVersionUID = 1L;

  ProtocolException(String message) {
    super(message, null, false, false);
  }
}
