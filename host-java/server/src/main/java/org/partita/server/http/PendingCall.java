package org.partita.server.http;

import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;
import org.partita.proto.ErrorCode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.security.Principal;

/**
 * One call on its way through the {@link Dispatcher}. When the dispatcher
 * refuses it (backpressure) the call is tried again on the connection's event
 * loop every {@link #RETRY_DELAY_MS} ms; the connection reads nothing
 * meanwhile (its handler has paused reading while the request is answered).
 * After the endpoint's busy timeout the call is answered 503 SERVER_BUSY;
 * when the connection closes or the server starts shutting down, retrying
 * stops.
 *
 * <p>Attempts run on the event loop; {@link #onResponse} may be called on any
 * thread and hands the response to the event loop, where it is written as JSON.
 */
final class PendingCall implements ResponseHandler, Runnable {
  static final long RETRY_DELAY_MS = 1;
  private static final Logger LOG = Logger.getLogger(PendingCall.class.getName());
  /**
   * The client id of calls that arrive over HTTP (each request is its own
   * call; no sequence). Its top bit is clear, so it is never taken for a
   * client session (txn.ClientSessions): HTTP calls all carry sequence 0
   * and must never be answered from a de-duplication table. Connection ids
   * are small counters and never reach it.
   */
  static final long HTTP_CLIENT = Long.MAX_VALUE;

  private final Dispatcher dispatcher;
  private final ApiCall call;
  private final Principal caller;
  private final ChannelHandlerContext ctx;
  private final ReplySink sink;
  private final ApiEndpoint endpoint;
  private final long deadlineNanos;
  // Event loop only: the call encoded as the binary protocol would carry it, made on the first attempt.
  private Invocation invocation;

  PendingCall(Dispatcher dispatcher, ApiCall call, Principal caller, ChannelHandlerContext ctx, ReplySink sink,
      ApiEndpoint endpoint, long deadlineNanos) {
    this.caller = caller;
    this.dispatcher = dispatcher;
    this.call = call;
    this.ctx = ctx;
    this.sink = sink;
    this.endpoint = endpoint;
    this.deadlineNanos = deadlineNanos;
  }

  /** Offers the call to the dispatcher once; schedules the next try if refused. REQUIRES: on the event loop. */
  void attempt() {
    if (!ctx.channel().isActive()) {
      return;
    }
    if (invocation == null) {
      try {
        invocation = Invocation.of(call.procedure(), call.parameters(), HTTP_CLIENT, 0, call.timeoutMillis());
      } catch (ServerException e) {
        onResponse(ErrorTable.response(e));
        return;
      }
    }
    final boolean accepted;
    try {
      accepted = dispatcher.dispatch(invocation, caller, this);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "dispatching " + call.procedure() + " failed", e);
      sink.send(Replies.error(ctx.alloc(), HttpResponseStatus.INTERNAL_SERVER_ERROR, ErrorCode.ERROR_CODE_INTERNAL,
          "the server failed to run " + call.procedure() + ": " + e, false));
      return;
    }
    if (accepted) {
      return;
    }
    if (endpoint.isShuttingDown()) {
      sink.send(ApiEndpoint.shuttingDownReply(ctx));
    } else if (System.nanoTime() - deadlineNanos >= 0) {
      sink.send(Replies.error(ctx.alloc(), HttpResponseStatus.SERVICE_UNAVAILABLE, ErrorCode.ERROR_CODE_SERVER_BUSY,
          "the server was too busy to accept the call for " + endpoint.busyTimeout().toMillis() + " ms; retry later",
          false, "Retry-After", "1"));
    } else {
      ctx.executor().schedule(this, RETRY_DELAY_MS, TimeUnit.MILLISECONDS);
    }
  }

  /** The next attempt (scheduled on the event loop). */
  @Override
  public void run() {
    attempt();
  }

  // Writes the response as JSON; a response that cannot be written is answered 500 rather than left hanging.
  private void deliver(ClientResponse response) {
    Reply reply;
    try {
      reply = Replies.call(ctx.alloc(), response);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "writing the response of " + call.procedure() + " as JSON failed", e);
      reply = Replies.error(ctx.alloc(), HttpResponseStatus.INTERNAL_SERVER_ERROR, ErrorCode.ERROR_CODE_INTERNAL,
          "the server failed to write the response of " + call.procedure() + ": " + e, false);
    }
    sink.send(reply);
  }

  @Override
  public void onResponse(ClientResponse response) {
    try {
      ctx.executor().execute(() -> deliver(response));
    } catch (RejectedExecutionException e) {
      // The event loop has shut down, so the connection is gone: nobody is left to answer.
    }
  }
}
