package org.partita.server.http;

import java.time.Duration;

/**
 * The limits the HTTP API enforces on each request (docs/http-api.md, "Limits"). Immutable.
 *
 * @param maxBodyBytes largest request body accepted; a larger one is answered 413 and the connection closed
 * @param maxRequestLineBytes longest request line ("GET /api/1.0/?Procedure=... HTTP/1.1") accepted; a longer
 *     one is answered 400 (GET calls carry their parameters there)
 * @param maxHeaderBytes largest total size of a request's headers; larger is answered 400
 * @param busyTimeout how long a call keeps being retried while the server refuses new work (backpressure)
 *     before it is answered 503
 */
public record HttpApiLimits(int maxBodyBytes, int maxRequestLineBytes, int maxHeaderBytes, Duration busyTimeout) {
  /** 16 MiB bodies, 64 KiB request lines, 64 KiB of headers, 5 s of retrying a refused call. */
  public static final HttpApiLimits DEFAULTS = new HttpApiLimits(16 << 20, 64 << 10, 64 << 10, Duration.ofSeconds(5));

  public HttpApiLimits {
    requirePositive(maxBodyBytes, "maxBodyBytes");
    requirePositive(maxRequestLineBytes, "maxRequestLineBytes");
    requirePositive(maxHeaderBytes, "maxHeaderBytes");
    if (busyTimeout == null || busyTimeout.isNegative()) {
      throw new IllegalArgumentException("busyTimeout must be zero or positive, not " + busyTimeout);
    }
  }

  /** These limits with another largest body. */
  public HttpApiLimits withMaxBodyBytes(int bytes) {
    return new HttpApiLimits(bytes, maxRequestLineBytes, maxHeaderBytes, busyTimeout);
  }

  /** These limits with another retry time for refused calls. */
  public HttpApiLimits withBusyTimeout(Duration timeout) {
    return new HttpApiLimits(maxBodyBytes, maxRequestLineBytes, maxHeaderBytes, timeout);
  }

  private static void requirePositive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, not " + value);
    }
  }
}
