package org.partita.server.http;

import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * A request the HTTP layer refuses before any call is made: carries the HTTP
 * status, the error name and a message naming what was wrong and where. Used
 * for control flow inside this package only; carries no stack trace.
 */
final class RequestException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient HttpResponseStatus status;
  private final String errorName;

  RequestException(HttpResponseStatus status, String errorName, String message) {
    super(message, null, false, false);
    this.status = status;
    this.errorName = errorName;
  }

  /** A 400 BAD_REQUEST with {@code message}. */
  static RequestException badRequest(String message) {
    return new RequestException(HttpResponseStatus.BAD_REQUEST, "BAD_REQUEST", message);
  }

  HttpResponseStatus status() {
    return status;
  }

  String errorName() {
    return errorName;
  }
}
