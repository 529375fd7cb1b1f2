package org.partita.server.http;

import org.partita.server.error.ErrorTable;
import org.partita.proto.ErrorCode;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.partita.client.ClientResponse;

/**
 * The JSON replies of the HTTP API. Errors found by the HTTP layer take the
 * shape of a call response, with the status ErrorTable gives their code (docs/http-api.md, "Errors"),
 * so that clients read every answer the same way. Stateless.
 */
final class Replies {
  static final String JSON = HttpHeaderValues.APPLICATION_JSON.toString();

  private Replies() {}

  /** 200 with {@code response} (success or failure: its status is inside). */
  static Reply call(ByteBufAllocator alloc, ClientResponse response) {
    return new BufferReply(HttpResponseStatus.OK, JSON, ResponseJson.write(response, alloc), false);
  }

  /** {@code status} with the failure response for {@code code} and {@code message} (its status from ErrorTable). */
  static Reply error(ByteBufAllocator alloc, HttpResponseStatus status, ErrorCode code, String message,
      boolean close, String... headers) {
    final ClientResponse response = ErrorTable.response(code, message);
    return new BufferReply(status, JSON, ResponseJson.write(response, alloc), close, headers);
  }

  /** The error a {@link RequestException} describes; the connection stays open. */
  static Reply error(ByteBufAllocator alloc, RequestException e) {
    return error(alloc, e.status(), e.code(), e.getMessage(), false);
  }

  /** 405, naming the methods {@code path} allows. */
  static Reply methodNotAllowed(ByteBufAllocator alloc, String method, String path, String allowed) {
    return error(alloc, HttpResponseStatus.METHOD_NOT_ALLOWED, ErrorCode.ERROR_CODE_METHOD_NOT_ALLOWED,
        method + " is not allowed on " + path + "; use " + allowed, false, "Allow", allowed);
  }

  /** 404 for {@code path}. */
  static Reply notFound(ByteBufAllocator alloc, String path) {
    return error(alloc, HttpResponseStatus.NOT_FOUND, ErrorCode.ERROR_CODE_NOT_FOUND, "nothing at " + path, false);
  }

  /** The health endpoint's answer. */
  static Reply health(ByteBufAllocator alloc, boolean shuttingDown) {
    final String body = shuttingDown ? "{\"status\":\"shutting down\"}" : "{\"status\":\"ok\"}";
    return new BufferReply(shuttingDown ? HttpResponseStatus.SERVICE_UNAVAILABLE : HttpResponseStatus.OK, JSON,
        ByteBufUtil.writeUtf8(alloc, body), false, "Cache-Control", "no-store");
  }
}
