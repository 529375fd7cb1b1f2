package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.partita.client.CallTimeoutException;
import org.partita.client.ClientResponse;
import org.partita.client.ConnectionLostException;
import org.partita.proto.ErrorCode;

class SqlStatesTest {
  @Test
  void shouldGiveEveryErrorCodeAStateOfFiveCharacters() {
    for (ErrorCode code : ErrorCode.values()) {
      final SQLException e = SqlStates.forCode(code, "m");
      assertNotNull(e.getSQLState(), code.name());
      assertEquals(5, e.getSQLState().length(), code.name());
    }
  }

  @Test
  void shouldMapServerAnswersToTheirClasses() {
    final SQLException duplicate = SqlStates.fromResponse("Vote", ClientResponse.failure(
        ClientResponse.Status.GRACEFUL_FAILURE, ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, "key (ID=1) exists"));
    assertInstanceOf(SQLIntegrityConstraintViolationException.class, duplicate);
    assertEquals("23505", duplicate.getSQLState());
    assertEquals(ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION.getNumber(), duplicate.getErrorCode());
    assertTrue(duplicate.getMessage().contains("Vote: GRACEFUL_FAILURE CONSTRAINT_VIOLATION: key (ID=1) exists"),
        duplicate.getMessage());
    assertInstanceOf(SQLTransactionRollbackException.class,
        SqlStates.forCode(ErrorCode.ERROR_CODE_USER_ABORT, "m"));
    assertEquals("40001", SqlStates.forCode(ErrorCode.ERROR_CODE_CATALOG_CHANGED, "m").getSQLState());
    assertEquals("08007", SqlStates.forCode(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, "m").getSQLState());
  }

  @Test
  void shouldMapClientFailuresToConnectionAndTimeoutStates() {
    final SQLException lost = SqlStates.fromClient("Vote", new ConnectionLostException("h:1 closed"));
    assertInstanceOf(SQLTransientConnectionException.class, lost);
    assertEquals("08006", lost.getSQLState());
    final SQLException late = SqlStates.fromClient("Vote", new CallTimeoutException("Vote", Duration.ofMillis(5)));
    assertInstanceOf(SQLTimeoutException.class, late);
    assertEquals("HYT00", late.getSQLState());
  }
}
