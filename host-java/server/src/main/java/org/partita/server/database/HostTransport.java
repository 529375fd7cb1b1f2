package org.partita.server.database;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;

/**
 * How the database of one cluster host reaches the other hosts for
 * multi-partition work (docs/cluster.md, "Multi-partition transactions"):
 * the coordinator's steps for a partition another host leads, and a call
 * forwarded to the coordinator's host. The host's internal port implements
 * it; the request id of each message is the transport's to set.
 *
 * <p>Thread-safe; the futures complete on the transport's threads.
 */
public interface HostTransport {
  /** Sends {@code request} to {@code host}; completes with its answer. */
  CompletableFuture<FragmentAnswer> send(int host, FragmentRequest request);

  /** Forwards {@code call} to {@code host}; completes with the response. */
  CompletableFuture<ForwardedAnswer> forward(int host, ForwardedCall call);

  /** The transport whose two methods are {@code send} and {@code forward}. */
  static HostTransport of(BiFunction<Integer, FragmentRequest, CompletableFuture<FragmentAnswer>> send,
      BiFunction<Integer, ForwardedCall, CompletableFuture<ForwardedAnswer>> forward) {
    return new HostTransport() {
      @Override
      public CompletableFuture<FragmentAnswer> send(int host, FragmentRequest request) {
        return send.apply(host, request);
      }

      @Override
      public CompletableFuture<ForwardedAnswer> forward(int host, ForwardedCall call) {
        return forward.apply(host, call);
      }
    };
  }
}
