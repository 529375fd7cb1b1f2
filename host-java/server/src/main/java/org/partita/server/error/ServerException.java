package org.partita.server.error;

import org.partita.proto.ErrorCode;

/**
 * The root of every failure the server reports to a caller: a code from
 * proto/errors.proto and a message naming what was wrong and where. Whoever
 * answers the call turns it into a response through {@link ErrorTable}, so
 * the same failure gets the same status on every path (binary protocol,
 * HTTP, in process). Stack traces are not filled: these are expected
 * outcomes, not bugs, and must be cheap to throw.
 */
public class ServerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public ServerException(ErrorCode code, String message) {
    super(message, null, false, false);
    this.code = code;
  }

  /** For subclasses that carry a cause (e.g. an engine error with its native origin). */
  protected ServerException(ErrorCode code, String message, boolean writableStackTrace) {
    super(message, null, false, writableStackTrace);
    this.code = code;
  }

  public final ErrorCode code() {
    return code;
  }

  /** A parameter that cannot be used: wrong count, type, or value out of its type's range. */
  public static ServerException badParameter(String message) {
    return new ServerException(ErrorCode.ERROR_CODE_BAD_PARAMETER, message);
  }

  @Override
  public String toString() {
    return ErrorTable.name(code) + ": " + getMessage();
  }
}
