package org.partita.server.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ClientResponse.Status;
import org.partita.proto.ErrorCode;

class ErrorTableTest {
  @Test
  void shouldHaveARowForEveryCodeOfErrorsProto() {
    for (ErrorCode code : ErrorCode.values()) {
      if (code != ErrorCode.UNRECOGNIZED) {
        assertTrue(ErrorTable.hasRow(code), code + " has no row in ErrorTable");
      }
    }
  }

  @Test
  void shouldAnswerOneCodeWithOneStatus() {
    assertEquals(Status.REJECTED, ErrorTable.statusOf(ErrorCode.ERROR_CODE_BAD_PARAMETER));
    assertEquals(Status.REJECTED, ErrorTable.statusOf(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND));
    assertEquals(Status.GRACEFUL_FAILURE, ErrorTable.statusOf(ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION));
    assertEquals(Status.GRACEFUL_FAILURE, ErrorTable.statusOf(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT));
    assertEquals(Status.USER_ABORT, ErrorTable.statusOf(ErrorCode.ERROR_CODE_USER_ABORT));
    assertEquals(Status.UNEXPECTED_FAILURE, ErrorTable.statusOf(ErrorCode.ERROR_CODE_INTERNAL));
  }

  @Test
  void shouldBuildResponsesCarryingTheCodeAndItsName() {
    final ClientResponse r = ErrorTable.response(ServerException.badParameter("parameter 2: no"));
    assertEquals(Status.REJECTED, r.status());
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, r.errorCode());
    assertEquals("BAD_PARAMETER", r.errorName());
    assertEquals("parameter 2: no", r.message());
  }

  @Test
  void shouldNameCodesWithoutTheirPrefix() {
    assertEquals("WRONG_PARTITION", ErrorTable.name(ErrorCode.ERROR_CODE_WRONG_PARTITION));
    assertEquals("", ErrorTable.name(ErrorCode.ERROR_CODE_UNSPECIFIED));
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, ClientResponse.errorCodeNamed("NOT_LEADER"));
    assertEquals(ErrorCode.ERROR_CODE_UNSPECIFIED, ClientResponse.errorCodeNamed("NO_SUCH_CODE"));
  }
}
