package org.partita.server.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;

class InvocationTest {
  @Test
  void shouldDecodeWhatItEncodedWithTheClientsEncoder() {
    final Object[] values = {7L, 2.5, new BigDecimal("-1.25"), "héllo", new byte[] {1, 2}, Instant.ofEpochSecond(3),
        null, 42};
    final Invocation call = Invocation.of("Vote", values, 9, 11);
    final Object[] decoded = call.parameters();
    assertEquals(8, call.parameterCount());
    assertEquals(7L, decoded[0]);
    assertEquals(2.5, decoded[1]);
    assertEquals(new BigDecimal("-1.25"), decoded[2]);
    assertEquals("héllo", decoded[3]);
    assertArrayEquals(new byte[] {1, 2}, (byte[]) decoded[4]);
    assertEquals(Instant.ofEpochSecond(3), decoded[5]);
    assertNull(decoded[6]);
    assertEquals(42L, decoded[7], "integers of every width travel as BIGINT");
    assertEquals("héllo", call.parameter(3));
    assertNull(call.parameter(8));
  }

  @Test
  void shouldDecodeIntoAReusedArrayOfTheRightSizeOnly() {
    final Invocation call = Invocation.of("Vote", new Object[] {6175551234L, -3.5, "MA"}, 1, 2);
    final Object[] into = {"stale", "stale", "stale"};
    call.parametersInto(into);
    assertArrayEquals(call.parameters(), into);
    assertThrows(IllegalArgumentException.class, () -> call.parametersInto(new Object[2]));
  }

  @Test
  void shouldFindIntegerParametersForRoutingWithoutBoxingThem() {
    final Invocation call = Invocation.of("Vote", new Object[] {6175551234L, "MA", -3L, null, 2.5}, 1, 2);
    assertEquals(6175551234L, call.integerAt(call.integerParameterAt(0)));
    assertEquals(-3L, call.integerAt(call.integerParameterAt(2)));
    assertEquals(-1, call.integerParameterAt(1), "text");
    assertEquals(-1, call.integerParameterAt(3), "NULL: no value at all");
    assertEquals(-1, call.integerParameterAt(4), "float");
    assertEquals(-1, call.integerParameterAt(5), "absent");
    assertEquals(Long.MIN_VALUE, Invocation.of("P", new Object[] {Long.MIN_VALUE}, 0, 0).integerAt(
        Invocation.of("P", new Object[] {Long.MIN_VALUE}, 0, 0).integerParameterAt(0)));
  }

  @Test
  void shouldTakeTheLastValueOfAParameterAsTheDecoderDoes() throws Exception {
    // Parameter 1 holds text, then an integer; parameter 2 an integer, then text (Invocation: field 2 =
    // procedure, 3 = parameters; Parameter: field 1 = integer as a zig-zag varint, 4 = text).
    final byte[] message = {18, 1, 'P', 26, 5, 34, 1, 'x', 8, 14, 26, 5, 8, 14, 34, 1, 'y'};
    final Invocation call = Invocation.received(message, InvocationCodec.scan(message), "P", 0);
    assertEquals(7L, call.parameter(0));
    assertEquals(7L, call.integerAt(call.integerParameterAt(0)));
    assertEquals("y", call.parameter(1));
    assertEquals(-1, call.integerParameterAt(1));
  }

  @Test
  void shouldRoundTripThroughItsLogForm() throws Exception {
    final Invocation call = Invocation.of("Transfer", new Object[] {1L, "x"}, 4, 5);
    final Invocation back = Invocation.fromProto(call.toProto());
    assertEquals("Transfer", back.procedure());
    assertEquals(4, back.clientId());
    assertEquals(5, back.clientSequence());
    assertArrayEquals(call.parameters(), back.parameters());
  }

  @Test
  void shouldRefuseParametersWithNoWireFormAsBadParameters() {
    final ServerException e = assertThrows(ServerException.class,
        () -> Invocation.of("P", new Object[] {new Object()}, 0, 0));
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, e.code());
    assertTrue(e.getMessage().startsWith("P parameter 1"), e.getMessage());
    final ServerException time = assertThrows(ServerException.class,
        () -> Invocation.of("P", new Object[] {Instant.MAX}, 0, 0));
    assertTrue(time.getMessage().contains("outside the TIMESTAMP range"), time.getMessage());
  }

  @Test
  void shouldRoundTripHeaders() {
    final TxnHeader header = new TxnHeader(new TxnId(2, 3, 4), -5, 6, 7);
    assertEquals(header, TxnHeader.fromProto(header.toProto()));
    assertThrows(IllegalArgumentException.class, () -> new TxnId(0, 0, 1));
  }
}
