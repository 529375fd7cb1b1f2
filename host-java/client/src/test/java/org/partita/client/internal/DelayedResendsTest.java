package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;

final class DelayedResendsTest {
  private final CallTracker tracker = new CallTracker();

  private PendingCall call(CompletableFuture<ClientResponse> future, long timeoutMillis, int routedPlusOne) {
    final PendingCall call = new PendingCall(42, "Vote", new Object[] {1L}, TimeUnit.MILLISECONDS.toNanos(timeoutMillis),
        0, null, tracker, future, null);
    call.route(routedPlusOne);
    call.handOver(null, System.nanoTime());
    return call;
  }

  /** Resends that count the asks for the leaders in {@code asked} and hand calls sent again to {@code sent}. */
  private static DelayedResends countingAsks(AtomicInteger asked, LinkedBlockingQueue<PendingCall> sent) {
    return new DelayedResends(() -> {
      asked.incrementAndGet();
      return CompletableFuture.completedFuture(null);
    }, sent::add);
  }

  @Test
  void aRoutedCallIsSentAgainAfterTheLeadersWereAsked() throws Exception {
    final AtomicInteger asked = new AtomicInteger();
    final LinkedBlockingQueue<PendingCall> sent = new LinkedBlockingQueue<>();
    final DelayedResends resends = countingAsks(asked, sent);
    final PendingCall call = call(new CompletableFuture<>(), 10_000, 2);
    assertTrue(resends.resend(call, "connection lost"));
    assertSame(call, sent.poll(5, TimeUnit.SECONDS), "sent again");
    assertEquals(1, asked.get(), "after asking for the leaders");
    assertEquals("connection lost", call.unknownReason());
    assertEquals(1, call.unknownResends());
    resends.close();
  }

  @Test
  void aMultiPartitionProcedureCallIsSentAgainThoughNotRoutedToAPartition() throws Exception {
    final LinkedBlockingQueue<PendingCall> sent = new LinkedBlockingQueue<>();
    final DelayedResends resends = new DelayedResends(() -> CompletableFuture.completedFuture(null), sent::add);
    final PendingCall call = call(new CompletableFuture<>(), 10_000, 0);
    call.multiPartitionProcedure = true;
    assertTrue(resends.resend(call, "connection lost"));
    assertSame(call, sent.poll(5, TimeUnit.SECONDS), "sent again: the servers de-duplicate it too");
    resends.close();
  }

  @Test
  void aCallNotRoutedToAPartitionOrOutOfTimeIsNotSentAgain() {
    final DelayedResends resends = new DelayedResends(() -> CompletableFuture.completedFuture(null), c -> { });
    assertFalse(resends.resend(call(new CompletableFuture<>(), 10_000, 0), "lost"), "a system procedure or SQL");
    assertFalse(resends.resend(call(new CompletableFuture<>(), 0, 1), "lost"), "its time is spent");
    resends.close();
  }

  @Test
  void aCallWaitingWhenItsTimeRunsOutOrTheClientClosesEndsAsOutcomeUnknown() throws Exception {
    final LinkedBlockingQueue<PendingCall> sent = new LinkedBlockingQueue<>();
    final DelayedResends resends = new DelayedResends(() -> CompletableFuture.completedFuture(null), sent::add);
    // 30 ms left: the wait ends at its deadline, and the call ends there instead of being sent.
    final CompletableFuture<ClientResponse> late = new CompletableFuture<>();
    assertTrue(resends.resend(call(late, 30, 1), "connection lost"));
    final ClientResponse out = late.get(5, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, out.errorCode());
    assertTrue(out.message().contains("connection lost"), out.message());
    // Closing ends a call still waiting its 50 ms.
    final CompletableFuture<ClientResponse> closing = new CompletableFuture<>();
    assertTrue(resends.resend(call(closing, 60_000, 1), "connection lost"));
    resends.close();
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, closing.get(5, TimeUnit.SECONDS).errorCode());
    assertTrue(sent.isEmpty(), "neither was sent again");
    assertFalse(resends.resend(call(new CompletableFuture<>(), 60_000, 1), "lost"), "closed");
  }

  @Test
  void aCallAHostBehindRefusedIsSentAgainWithoutAskingAndEndsWithItsNotLeaderAnswerWhenClosed() throws Exception {
    final AtomicInteger asked = new AtomicInteger();
    final LinkedBlockingQueue<PendingCall> sent = new LinkedBlockingQueue<>();
    final DelayedResends resends = countingAsks(asked, sent);
    final ClientResponse notLeader = ClientResponse.failure(ClientResponse.Status.GRACEFUL_FAILURE,
        ErrorCode.ERROR_CODE_NOT_LEADER, "not led here");
    final PendingCall call = call(new CompletableFuture<>(), 10_000, 2);
    assertTrue(resends.resendAfterHostCatchesUp(call, notLeader));
    assertSame(call, sent.poll(5, TimeUnit.SECONDS), "sent again");
    assertEquals(0, asked.get(), "the client already follows the newer topology");
    assertEquals(1, call.behindWaits());
    assertEquals(null, call.unknownReason(), "its outcome is known: not run");
    assertFalse(resends.resendAfterHostCatchesUp(call(new CompletableFuture<>(), 10_000, 0), notLeader),
        "not routed to a partition");

    final CompletableFuture<ClientResponse> closing = new CompletableFuture<>();
    final PendingCall waiting = call(closing, 60_000, 2);
    for (int i = 0; i < 10; i++) {
      waiting.waitForHostBehind();  // the next wait is the longest, 50 ms
    }
    assertTrue(resends.resendAfterHostCatchesUp(waiting, notLeader));
    resends.close();
    assertSame(notLeader, closing.get(5, TimeUnit.SECONDS), "ended with the answer it waits after");
  }
}
