package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.server.txn.Invocation;

/**
 * {@link ForwardedCalls} across a failover, without sockets: a forwarded
 * call whose answer will not come is OUTCOME_UNKNOWN, never "failed"; a
 * host that has just become partition 0's leader answers NOT_LEADER (not
 * run) instead of forwarding to itself.
 */
class ForwardedCallsTest {
  private static final Invocation CALL = Invocation.of("Transfer", new Object[] {1L, 2L, 3L}, 9, 1);

  private static ClientResponse forward(ForwardedCalls calls) {
    final AtomicReference<ClientResponse> answer = new AtomicReference<>();
    assertTrue(calls.forward(CALL, answer::set));
    return answer.get();
  }

  @Test
  void shouldAnswerOutcomeUnknownWhenTheCoordinatorsHostIsGone() {
    final HostTransport moved = HostTransport.of((host, request) -> new CompletableFuture<>(),
        (host, call) -> CompletableFuture.failedFuture(new LeaderMovedException(0, "partition 0 is led by host 1")));
    final ClientResponse answer = forward(new ForwardedCalls(2, () -> 0, moved, 4));
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, answer.errorCode(), answer.toString());
    assertTrue(answer.message().contains("partition 0 is led by host 1"), answer.message());

    final HostTransport broken = HostTransport.of((host, request) -> new CompletableFuture<>(),
        (host, call) -> CompletableFuture.failedFuture(new IllegalStateException("connection reset")));
    final ClientResponse unknown = forward(new ForwardedCalls(2, () -> 0, broken, 4));
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, unknown.errorCode(), unknown.toString());
    assertTrue(unknown.message().contains("connection reset") && unknown.message().contains("host 0"),
        unknown.message());
  }

  @Test
  void shouldForwardToTheCurrentCoordinatorAndNotToItself() {
    final AtomicInteger coordinator = new AtomicInteger(0);
    final AtomicInteger sentTo = new AtomicInteger(-1);
    final HostTransport transport = HostTransport.of((host, request) -> new CompletableFuture<>(), (host, call) -> {
      sentTo.set(host);
      return CompletableFuture.completedFuture(ForwardedAnswer.newBuilder()
          .setStatus(ClientResponse.Status.SUCCESS.wireCode()).build());
    });
    final ForwardedCalls calls = new ForwardedCalls(2, coordinator::get, transport, 4);
    assertTrue(forward(calls).ok());
    assertEquals(0, sentTo.get());
    coordinator.set(1);
    assertTrue(forward(calls).ok());
    assertEquals(1, sentTo.get(), "the next call follows partition 0's new leader");
    coordinator.set(2);
    final ClientResponse self = forward(calls);
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, self.errorCode(), self.toString());
    assertTrue(self.message().contains("not run"), self.message());
    assertEquals(1, sentTo.get(), "nothing forwarded to this host itself");
  }
}
