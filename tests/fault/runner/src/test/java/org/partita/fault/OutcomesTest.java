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
