package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.database.FailoverOutcome.Decision;
import org.partita.server.database.FailoverOutcome.PartState;

/**
 * The rules for a multi-partition transaction that meets a failover,
 * without sockets: what its client is told, and what a new coordinator
 * decides from the surviving parts.
 */
class FailoverOutcomeTest {
  private static final LeaderMovedException MOVED = new LeaderMovedException(1, "partition 1 is led by host 2");

  @Test
  void shouldAnswerNotRunWhenALeaderMovedBeforeAnyCommit() {
    final ClientResponse answer = FailoverOutcome.beforeCommit(new CompletionException(MOVED));
    assertEquals(ErrorCode.ERROR_CODE_PARTITION_UNAVAILABLE, answer.errorCode(), answer.toString());
    assertTrue(answer.message().contains("did not run") && answer.message().contains("partition 1 is led by host 2"),
        answer.message());
  }

  @Test
  void shouldAnswerOtherFailuresBeforeCommitAsAlways() {
    final ClientResponse answer = FailoverOutcome.beforeCommit(
        new ServerException(ErrorCode.ERROR_CODE_USER_ABORT, "cannot pay"));
    assertEquals(ErrorCode.ERROR_CODE_USER_ABORT, answer.errorCode());
    assertEquals("cannot pay", answer.message());
  }

  @Test
  void shouldMakeACommittedTransactionWhoseReleaseFailedUnknownAndKeepARolledBackOne() {
    final ClientResponse committed = FailoverOutcome.afterRelease(ClientResponse.success(List.of()),
        new CompletionException(MOVED));
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, committed.errorCode(), committed.toString());
    final ClientResponse rolledBack = ErrorTable.response(ErrorCode.ERROR_CODE_USER_ABORT, "no");
    assertSame(rolledBack, FailoverOutcome.afterRelease(rolledBack, MOVED));
    final ClientResponse fine = ClientResponse.success(List.of());
    assertSame(fine, FailoverOutcome.afterRelease(fine, null));
  }

  @Test
  void shouldCommitWhatCommittedAnywhereAndAbortWhatDidNot() {
    assertEquals(Decision.COMMIT, FailoverOutcome.decide(List.of(PartState.OPEN, PartState.COMMITTED), 3));
    assertEquals(Decision.COMMIT, FailoverOutcome.decide(List.of(PartState.COMMITTED), 1));
    assertEquals(Decision.COMMIT, FailoverOutcome.decide(
        List.of(PartState.PREPARED, PartState.PREPARED, PartState.PREPARED), 3));
    // Prepared on some partitions only: one partition may lack its part.
    assertEquals(Decision.ABORT, FailoverOutcome.decide(List.of(PartState.PREPARED, PartState.PREPARED), 3));
    assertEquals(Decision.ABORT, FailoverOutcome.decide(List.of(PartState.PREPARED, PartState.OPEN), 2));
    assertEquals(Decision.ABORT, FailoverOutcome.decide(List.of(PartState.OPEN), 1));
    assertEquals(Decision.ABORT, FailoverOutcome.decide(List.of(PartState.ROLLED_BACK, PartState.PREPARED), 2));
    assertEquals(Decision.ABORT, FailoverOutcome.decide(List.of(), 2));
  }
}
