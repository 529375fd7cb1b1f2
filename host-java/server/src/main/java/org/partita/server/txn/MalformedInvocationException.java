package org.partita.server.txn;

/**
 * The bytes of an Invocation are not a well-formed protobuf message (a
 * truncated varint, a field running past its message, an impossible wire
 * type). The binary protocol closes the connection on it: nothing after
 * such bytes can be trusted. Carries no stack trace.
 */
public final class MalformedInvocationException extends Exception {
  private static final long serialVersionUID = 1L;

  public MalformedInvocationException(String message) {
    super(message, null, false, false);
  }
}
