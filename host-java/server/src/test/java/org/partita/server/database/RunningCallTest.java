package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;

/** What @CancelQuery reaches: the running call of the client named, or any when asked; never an ended call. */
class RunningCallTest {
  private static final Invocation CALL = Invocation.of("P", new Object[0], 5, 1);

  @Test
  void shouldCancelOnlyTheNamedClientsCall() {
    final RunningCall running = new RunningCall(List.of());
    running.begin(CALL);
    assertNull(running.cancel(Long.MAX_VALUE), "another client (HTTP's id, not a wildcard)");
    assertDoesNotThrow(running::checkNotCancelled);
    assertSame(CALL, running.cancel(5));
    final ServerException e = assertThrows(ServerException.class, running::checkNotCancelled);
    assertEquals(ErrorCode.ERROR_CODE_CANCELLED, e.code());
  }

  @Test
  void shouldCancelAnyCallWhenAskedAndNothingOnceItEnded() {
    final RunningCall running = new RunningCall(List.of());
    assertNull(running.cancelAny(), "nothing runs");
    running.begin(CALL);
    assertSame(CALL, running.cancelAny());
    running.end();
    assertNull(running.cancelAny());
    running.begin(CALL);
    assertDoesNotThrow(running::checkNotCancelled, "a new call starts uncancelled");
  }

  /**
   * An engine forgets a stop request made before its batch starts: a cancel
   * that lands between the running thread's check and the batch's start
   * must be made again, until the call ends, or the batch runs to its time
   * limit (QueryLimitsTest saw that once under load).
   */
  @Test
  void shouldAskAgainUntilTheCancelledCallEnds() throws Exception {
    final AtomicBoolean pending = new AtomicBoolean();
    final RunningCall running = new RunningCall(List.of(() -> pending.set(true)));
    running.begin(CALL);
    assertSame(CALL, running.cancelAny());
    assertTrue(pending.get());
    pending.set(false);  // the engine starts its batch: it forgets the request
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!pending.get() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertTrue(pending.get(), "asked again after the engine forgot the request");
    assertTrue(running.repeating());
    running.end();
    assertFalse(running.repeating(), "no request after the call ended");
    running.begin(CALL);
    assertFalse(running.repeating());
    assertDoesNotThrow(running::checkNotCancelled);
  }
}
