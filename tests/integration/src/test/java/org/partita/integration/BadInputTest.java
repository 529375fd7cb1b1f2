package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ResultTable;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.proto.ErrorCode;

/**
 * What a broken or hostile client sends, against a real Voter server: each
 * gets a clear error or a closed connection, the server keeps serving, and
 * no committed vote is lost.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BadInputTest {
  private static final long VOTES = 200;
  private static ServerProcess server;

  @BeforeAll
  static void startAndVote() throws Exception {
    server = ServerProcess.voter(2);
    try (RawConnection c = loggedIn()) {
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, c.call(1, "Initialize", 6L, "A,B,C,D,E,F").getStatus());
      for (long i = 0; i < VOTES; i++) {
        final InvocationResponse r = c.call(100 + i, "Vote", 6175550000L + i, 1 + i % 6, 2L);
        assertEquals(CallStatus.CALL_STATUS_SUCCESS, r.getStatus(), r.toString());
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      assertVotesIntact();
      assertTrue(server.isAlive(), "the server must survive bad input:\n" + server.output());
      server.close();
    }
  }

  private static RawConnection loggedIn() throws Exception {
    final RawConnection c = new RawConnection(server.clientPort());
    assertEquals(LoginStatus.LOGIN_STATUS_OK, c.login(1).getStatus());
    return c;
  }

  private static void assertVotesIntact() throws Exception {
    try (RawConnection c = loggedIn()) {
      final InvocationResponse r = c.call(9, "@AdHoc", "SELECT COUNT(*) FROM votes");
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, r.getStatus(), r.getMessage());
      final ResultTable t = ResultTable.read(ByteBuffer.wrap(r.getResults(0).toByteArray()));
      t.advanceRow();
      assertEquals(VOTES, t.getLong(0));
    }
  }

  @Test
  void garbageBytesCloseOnlyThatConnection() throws Exception {
    try (RawConnection bad = new RawConnection(server.clientPort()); RawConnection good = loggedIn()) {
      bad.raw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      assertTrue(bad.closedByServer());
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, good.call(2, "@Ping").getStatus());
    }
  }

  @Test
  void anOversizedFrameClosesTheConnection() throws Exception {
    try (RawConnection c = loggedIn()) {
      c.raw(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void aTruncatedFrameThenCloseIsHarmless() throws Exception {
    try (RawConnection c = loggedIn()) {
      c.raw(new byte[] {0, 0, 0, 100, 8, 1});
    }
    try (RawConnection c = loggedIn()) {
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, c.call(3, "@Ping").getStatus());
    }
  }

  @Test
  void anotherProtocolVersionIsRefused() throws Exception {
    try (RawConnection c = new RawConnection(server.clientPort())) {
      assertEquals(LoginStatus.LOGIN_STATUS_BAD_VERSION, c.login(2).getStatus());
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void anUnknownProcedureIsRejectedByName() throws Exception {
    try (RawConnection c = loggedIn()) {
      final InvocationResponse r = c.call(4, "NoSuchProcedure", 1L);
      assertEquals(CallStatus.CALL_STATUS_REJECTED, r.getStatus());
      assertEquals("PROCEDURE_NOT_FOUND", r.getErrorName());
      assertEquals(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND_VALUE, r.getErrorCode());
      assertTrue(r.getMessage().contains("NoSuchProcedure"), r.getMessage());
    }
  }

  @Test
  void wrongParameterCountAndTypesNameTheParameter() throws Exception {
    try (RawConnection c = loggedIn()) {
      final InvocationResponse tooFew = c.call(5, "Vote", 6175551234L);
      assertEquals("BAD_PARAMETER", tooFew.getErrorName(), tooFew.toString());
      assertTrue(tooFew.getMessage().contains("Vote"), tooFew.getMessage());
      final InvocationResponse text = c.call(6, "Vote", "not a phone", 1L, 2L);
      assertEquals("BAD_PARAMETER", text.getErrorName(), text.toString());
      assertTrue(text.getMessage().contains("1"), text.getMessage());
      final InvocationResponse nullPartition = c.call(7, "Vote", null, 1L, 2L);
      assertEquals("BAD_PARAMETER", nullPartition.getErrorName(), nullPartition.toString());
    }
  }

  /** Regression: a DECIMAL parameter finer than DECIMAL(38, 12) was answered UNEXPECTED_FAILURE INTERNAL. */
  @Test
  void decimalParametersThatDoNotFitAreRejectedAsBadParameters() throws Exception {
    try (RawConnection c = loggedIn()) {
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, c.call(20, "@AdHoc",
          "CREATE TABLE amounts (id BIGINT NOT NULL PRIMARY KEY, amount DECIMAL)").getStatus());
      for (String text : new String[] {"0.0000000000001", "1e30", "-123456789012345678901234567.5"}) {
        final InvocationResponse r = c.call(21, "@AdHoc", "INSERT INTO amounts VALUES (1, ?)",
            new java.math.BigDecimal(text));
        assertEquals(CallStatus.CALL_STATUS_REJECTED, r.getStatus(), r.toString());
        assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER_VALUE, r.getErrorCode(), r.toString());
        assertEquals("BAD_PARAMETER", r.getErrorName(), r.toString());
        assertTrue(r.getMessage().contains("parameter 1"), r.getMessage());
      }
      final InvocationResponse count = c.call(22, "@AdHoc", "SELECT COUNT(*) FROM amounts");
      final ResultTable t = ResultTable.read(ByteBuffer.wrap(count.getResults(0).toByteArray()));
      t.advanceRow();
      assertEquals(0, t.getLong(0));
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, c.call(23, "@AdHoc", "DROP TABLE amounts").getStatus());
    }
  }

  @Test
  void sqlErrorsAreAnsweredWithTheirPosition() throws Exception {
    try (RawConnection c = loggedIn()) {
      final InvocationResponse syntax = c.call(8, "@AdHoc", "SELEKT * FROM votes");
      assertEquals(CallStatus.CALL_STATUS_GRACEFUL_FAILURE, syntax.getStatus());
      assertEquals("SQL_ERROR", syntax.getErrorName());
      final InvocationResponse missing = c.call(9, "@AdHoc", "SELECT nope FROM votes");
      assertTrue(missing.getMessage().toLowerCase().contains("nope"), missing.getMessage());
      final InvocationResponse tooLong = c.call(10, "@AdHoc",
          "INSERT INTO votes (phone_number, state, contestant_number) VALUES (1, 'ABCDEFGH', 1)");
      assertEquals(CallStatus.CALL_STATUS_GRACEFUL_FAILURE, tooLong.getStatus(), tooLong.toString());
      assertEquals("VALUE_TOO_LONG", tooLong.getErrorName(), tooLong.toString());
    }
  }

  @Test
  void aClientThatLeavesWithCallsInFlightHurtsNoOne() throws Exception {
    try (RawConnection c = loggedIn()) {
      for (long i = 0; i < 500; i++) {
        c.invoke(1000 + i, "@AdHoc", "SELECT COUNT(*) FROM votes");
      }
    }
    try (RawConnection c = loggedIn()) {
      assertEquals(CallStatus.CALL_STATUS_SUCCESS, c.call(11, "@Ping").getStatus());
    }
  }
}
