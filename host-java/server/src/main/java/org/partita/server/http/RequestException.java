package org.partita.server.http;

import org.partita.proto.ErrorCode;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.partita.proto.ErrorCode;

/**
 * A request the HTTP layer refuses before any call is made: carries the HTTP
 * status, the error code and a message naming what was wrong and where. Used
 * for control flow inside this package only; carries no stack trace.
 */
final class RequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient HttpResponseStatus status;
  private final ErrorCode code;

  RequestException(HttpResponseStatus status, ErrorCode code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  /** A 400 BAD_REQUEST with {@code message}. */
  static RequestException badRequest(String message) {
    return new RequestException(HttpResponseStatus.BAD_REQUEST, ErrorCode.ERROR_CODE_BAD_REQUEST, message);
  }

  HttpResponseStatus status() {
    return status;
  }

  ErrorCode code() {
    return code;
  }
}
