package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.partita.client.BackpressureException;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.client.NoConnectionsException;
import org.partita.proto.ErrorCode;

class OutcomesTest {
  @Test
  void shouldCallASuccessOk() {
    assertEquals(Outcome.OK, Outcomes.of(ClientResponse.success(java.util.List.of())));
  }

  @Test
  void shouldCallEveryOtherAnswerAFailure() {
    for (ClientResponse.Status status : ClientResponse.Status.values()) {
      if (status != ClientResponse.Status.SUCCESS) {
        assertEquals(Outcome.FAIL, Outcomes.of(ClientResponse.failure(status, ErrorCode.ERROR_CODE_UNSPECIFIED,
            "no")), status.name());
      }
    }
  }

  @Test
  void shouldCallAnUnknownOutcomeInfo() {
    // A deposed cluster leader fails its held answers so: the write may have reached the new leader's copy.
    assertEquals(Outcome.INFO, Outcomes.of(ClientResponse.failure(ClientResponse.Status.UNEXPECTED_FAILURE,
        ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "partition 2's leader was deposed while the answer was held")));
    assertEquals(Outcome.FAIL, Outcomes.of(ClientResponse.failure(ClientResponse.Status.REJECTED,
        ErrorCode.ERROR_CODE_NOT_LEADER, "partition 2 is led by host 1, not by this host (0); the call was not run")));
  }

  @Test
  void shouldCallATimeoutOrALostConnectionInfo() {
    assertEquals(Outcome.INFO, Outcomes.of(new ExecutionException(new CallTimeoutException("P", java.time.Duration.ofSeconds(2)))));
    assertEquals(Outcome.INFO, Outcomes.of(new ExecutionException(new ConnectionLostException("lost"))));
    assertEquals(Outcome.INFO, Outcomes.of(new IllegalStateException("anything unexpected")));
  }

  @Test
  void shouldCallACallNeverSentAFailure() {
    assertEquals(Outcome.FAIL, Outcomes.of(new ExecutionException(new NoConnectionsException("none up"))));
    assertEquals(Outcome.FAIL, Outcomes.of(new BackpressureException("full")));
    assertEquals(Outcome.FAIL, Outcomes.of(new ExecutionException(new ConnectionLostException(
        "connection to 127.0.0.1:43581 lost before the call to RegisterCas was sent: the connection is down"))));
    assertEquals(Outcome.INFO, Outcomes.of(new ExecutionException(new ConnectionLostException(
        "connection to 127.0.0.1:43581 lost with the call to RegisterCas in flight: the server closed the "
            + "connection"))));
  }
}
