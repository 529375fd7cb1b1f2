package org.partita.server.database;

import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.server.error.ErrorTable;
import org.partita.server.txn.Invocation;

/**
 * A cluster host's way to the multi-partition coordinator on another host
 * (docs/cluster.md, "Multi-partition transactions"): a call that needs
 * every partition is forwarded, as the client's invocation, to the
 * coordinator's host, which runs it as if its own client had sent it, and
 * its response comes back to the caller here. At most
 * {@link #capacity} calls are forwarded and unanswered at a time; past that
 * {@link #forward} refuses (the caller's backpressure), as the coordinator's
 * own queue does. Also the codec of the response on the wire.
 *
 * <p>Thread-safe; {@code done} runs on the transport's thread.
 */
final class ForwardedCalls {
  private final int selfHost;
  /** The coordinator's host now: the leader of partition 0 in the map this host follows. */
  private final java.util.function.IntSupplier coordinatorHost;
  private final HostTransport transport;
  private final int capacity;
  private final AtomicInteger inFlight = new AtomicInteger();

  ForwardedCalls(int selfHost, java.util.function.IntSupplier coordinatorHost, HostTransport transport,
      int capacity) {
    this.selfHost = selfHost;
    this.coordinatorHost = coordinatorHost;
    this.transport = transport;
    this.capacity = capacity;
  }

  int coordinatorHost() {
    return coordinatorHost.getAsInt();
  }

  /** Forwards {@code invocation}; false iff {@link #capacity} calls are already out (nothing sent, no answer). */
  boolean forward(Invocation invocation, Consumer<ClientResponse> done) {
    if (inFlight.incrementAndGet() > capacity) {
      inFlight.decrementAndGet();
      return false;
    }
    final ForwardedCall call = ForwardedCall.newBuilder().setFromHostId(selfHost)
        .setInvocation(invocation.toProto()).build();
    final int to = coordinatorHost.getAsInt();
    if (to == selfHost) {
      // Partition 0 just moved here; the database switches to coordinating (docs/cluster.md, "When a host dies
      // mid-transaction").
      inFlight.decrementAndGet();
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "host " + selfHost + " leads partition 0"
          + " now and is becoming the multi-partition coordinator; the call was not run"));
      return true;
    }
    transport.forward(to, call).whenComplete((answer, failure) -> {
      inFlight.decrementAndGet();
      done.accept(failure != null ? failed(to, Failures.unwrap(failure)) : decode(answer, to));
    });
    return true;
  }

  /**
   * The response to a forwarded call whose answer did not come: the
   * transport's own error when it has a code (OUTCOME_UNKNOWN when the
   * coordinator's host lost partition 0 with the call in flight), else
   * OUTCOME_UNKNOWN too, since the call may have reached the coordinator.
   */
  private static ClientResponse failed(int host, Throwable failure) {
    if (failure instanceof org.partita.server.error.ServerException e) {
      return ErrorTable.response(e);
    }
    return ErrorTable.response(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "forwarding the call to the coordinator's host "
        + host + " failed (" + failure.getMessage() + "); it may or may not have run there");
  }

  /** {@code response} as the answer to the forwarded call {@code requestId}. */
  static ForwardedAnswer encode(long requestId, ClientResponse response) {
    final ForwardedAnswer.Builder answer = ForwardedAnswer.newBuilder().setRequestId(requestId)
        .setStatus(response.status().wireCode()).setErrorCode(response.errorCode().getNumber())
        .setMessage(response.message()).setAppStatus(response.appStatus())
        .setAppStatusMessage(response.appStatusMessage());
    for (ResultTable table : response.results()) {
      answer.addResults(ByteString.copyFrom(table.bytes()));
    }
    return answer.build();
  }

  /**
   * The response {@code answer} carries; one whose tables do not parse is
   * an INTERNAL error naming the host (the call ran there; its outcome is
   * reported, not guessed).
   */
  static ClientResponse decode(ForwardedAnswer answer, int fromHost) {
    final List<ResultTable> tables = new ArrayList<>(answer.getResultsCount());
    try {
      for (ByteString bytes : answer.getResultsList()) {
        final ByteBuffer table = ByteBuffer.wrap(bytes.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        tables.add(ResultTable.read(table));
        if (table.hasRemaining()) {
          throw new IllegalArgumentException(table.remaining() + " byte(s) after a result table");
        }
      }
    } catch (RuntimeException e) {
      return ErrorTable.response(ErrorCode.ERROR_CODE_INTERNAL, "host " + fromHost + " ran the forwarded call but"
          + " its answer is malformed: " + e.getMessage());
    }
    final ErrorCode code = ErrorCode.forNumber(answer.getErrorCode());
    return new ClientResponse(ClientResponse.Status.fromWireCode(answer.getStatus()),
        code == null ? ErrorCode.ERROR_CODE_INTERNAL : code, answer.getMessage(), tables, answer.getAppStatus(),
        answer.getAppStatusMessage(), 0);
  }
}
