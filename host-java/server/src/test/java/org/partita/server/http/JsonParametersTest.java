package org.partita.server.http;

import org.partita.proto.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JsonParametersTest {
  private static Object[] convert(String json) {
    return JsonParameters.convert(Json.parse(json, "Parameters"));
  }

  private static Object one(String json) {
    final Object[] values = convert("[" + json + "]");
    assertEquals(1, values.length);
    return values[0];
  }

  private static void assertRejected(String expectedMessage, String json) {
    final RequestException e = assertThrows(RequestException.class, () -> convert(json));
    assertEquals(HttpResponseStatus.BAD_REQUEST, e.status());
    assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, e.code());
    assertEquals(expectedMessage, e.getMessage());
  }

  @Test
  void shouldReadIntegersAsLong() {
    assertArrayEquals(new Object[] {1L, -2L, Long.MAX_VALUE, Long.MIN_VALUE},
        convert("[1, -2, 9223372036854775807, -9223372036854775808]"));
  }

  @Test
  void shouldReadFractionsAndExponentsAsExactDecimals() {
    final Object[] values = convert("[1.50, 1e3, -0.1, 0.30000000000000000000000001]");
    assertEquals(new BigDecimal("1.50"), values[0]);
    assertEquals(new BigDecimal("1E+3"), values[1]);
    assertEquals(new BigDecimal("-0.1"), values[2]);
    assertEquals(new BigDecimal("0.30000000000000000000000001"), values[3]);
  }

  @Test
  void shouldReadZeroWithAnyExponentAsPlainZero() {
    assertEquals(BigDecimal.ZERO, one("0e999999999"));
    assertEquals(BigDecimal.ZERO, one("-0.0e-999999999"));
  }

  @Test
  void shouldReadStringsNullAndBooleans() {
    assertArrayEquals(new Object[] {"héllo", "", null, 1L, 0L}, convert("[\"héllo\", \"\", null, true, false]"));
  }

  @Test
  void shouldReadNoParametersFromAnEmptyArray() {
    assertEquals(0, convert("[]").length);
  }

  @Test
  void shouldReadHexAndBase64AsBytes() {
    assertArrayEquals(new byte[] {0x0a, 0x1b, (byte) 0xff}, (byte[]) one("{\"hex\": \"0a1BfF\"}"));
    assertArrayEquals(new byte[] {0x0a, 0x1b}, (byte[]) one("{\"base64\": \"Chs=\"}"));
    assertArrayEquals(new byte[0], (byte[]) one("{\"hex\": \"\"}"));
  }

  @Test
  void shouldReadTimestampsFromTextAndMicros() {
    assertEquals(Instant.parse("2026-11-22T10:00:00Z"), one("{\"timestamp\": \"2026-11-22T10:00:00Z\"}"));
    assertEquals(Instant.parse("2026-11-22T09:00:00.123456Z"),
        one("{\"timestamp\": \"2026-11-22T10:00:00.123456+01:00\"}"));
    assertEquals(Instant.parse("2026-11-22T10:00:00.5Z"), one("{\"timestamp\": \"2026-11-22 10:00:00.5\"}"));
    assertEquals(Instant.parse("2026-11-22T10:00:00Z"), one("{\"timestamp\": \"2026-11-22T10:00:00\"}"));
    assertEquals(Instant.parse("2026-11-22T00:00:00Z"), one("{\"timestamp\": \"2026-11-22\"}"));
    assertEquals(Instant.parse("1970-01-01T00:00:01.000002Z"), one("{\"timestamp\": 1000002}"));
    assertEquals(Instant.parse("1969-12-31T23:59:59.999999Z"), one("{\"timestamp\": -1}"));
  }

  @Test
  void shouldReadDecimalTextExactly() {
    assertEquals(new BigDecimal("12345678901234567890.123456789012"),
        one("{\"decimal\": \"12345678901234567890.123456789012\"}"));
  }

  @Test
  void shouldRejectNestedArrays() {
    assertRejected("Parameters[2]: nested arrays are not supported", "[1, 2, [3]]");
  }

  @Test
  void shouldRejectParametersThatAreNotAnArray() {
    assertRejected("Parameters must be a JSON array, not an object", "{\"a\": 1}");
    assertRejected("Parameters must be a JSON array, not a string", "\"[1]\"");
    assertRejected("Parameters must be a JSON array, not null", "null");
  }

  @Test
  void shouldRejectIntegersBeyondBigint() {
    assertRejected("Parameters[1]: integer 9223372036854775808 is out of BIGINT range; for a DECIMAL parameter write"
        + " it as {\"decimal\": \"9223372036854775808\"}", "[0, 9223372036854775808]");
  }

  @Test
  void shouldRejectNumbersBeyondFloatRange() {
    final String range = " is out of range (a nonzero number's magnitude must lie between 4.9E-324 and"
        + " 1.7976931348623157E308)";
    assertRejected("Parameters[0]: 1E+999999999" + range, "[1e999999999]");
    assertRejected("Parameters[0]: -1E-400" + range, "[-1e-400]");
    assertRejected("Parameters[0].decimal: 1E+309" + range, "[{\"decimal\": \"1e309\"}]");
  }

  @Test
  void shouldRejectObjectsThatAreNotOneTypedValue() {
    assertRejected("Parameters[0]: an object parameter must have exactly one key (hex, base64, timestamp or"
        + " decimal); found 2", "[{\"hex\": \"00\", \"base64\": \"AA==\"}]");
    assertRejected("Parameters[0]: an object parameter must have exactly one key (hex, base64, timestamp or"
        + " decimal); found 0", "[{}]");
    assertRejected("Parameters[1]: unknown typed value \"binary\"; expected hex, base64, timestamp or decimal",
        "[1, {\"binary\": \"00\"}]");
  }

  @Test
  void shouldRejectBadHex() {
    assertRejected("Parameters[0].hex: odd number of hex digits (3)", "[{\"hex\": \"abc\"}]");
    assertRejected("Parameters[0].hex: 'g' at offset 1 is not a hex digit", "[{\"hex\": \"0g\"}]");
    assertRejected("Parameters[0].hex: must be a string, not a number", "[{\"hex\": 12}]");
  }

  @Test
  void shouldRejectBadBase64() {
    final RequestException e = assertThrows(RequestException.class, () -> convert("[{\"base64\": \"a$==\"}]"));
    assertTrue(e.getMessage().startsWith("Parameters[0].base64: not valid base64 ("), e.getMessage());
  }

  @Test
  void shouldRejectBadTimestamps() {
    assertRejected("Parameters[0].timestamp: \"yesterday\" is not an ISO-8601 date-time such as 2026-11-22T10:00:00Z",
        "[{\"timestamp\": \"yesterday\"}]");
    assertRejected("Parameters[0].timestamp: \"2026-11-22T10:00:00.1234567Z\" is more precise than a microsecond",
        "[{\"timestamp\": \"2026-11-22T10:00:00.1234567Z\"}]");
    assertRejected("Parameters[0].timestamp: must be an ISO-8601 string or an integer of microseconds since the"
        + " epoch, not 1.5", "[{\"timestamp\": 1.5}]");
    assertRejected("Parameters[0].timestamp: must be an ISO-8601 string or an integer of microseconds since the"
        + " epoch, not true", "[{\"timestamp\": true}]");
    assertRejected("Parameters[0].timestamp: \"+999999999-01-01T00:00:00Z\" is out of TIMESTAMP range",
        "[{\"timestamp\": \"+999999999-01-01T00:00:00Z\"}]");
  }

  @Test
  void shouldRejectBadDecimalText() {
    assertRejected("Parameters[0].decimal: \"12,5\" is not a decimal number", "[{\"decimal\": \"12,5\"}]");
    assertRejected("Parameters[0].decimal: must be a string, not a number", "[{\"decimal\": 12.5}]");
  }

  @Test
  void shouldNameTheLineAndColumnOfBadJson() {
    final RequestException e = assertThrows(RequestException.class, () -> convert("[1, 2,, 3]"));
    assertTrue(e.getMessage().startsWith("Parameters is not valid JSON at line 1, column 7: "), e.getMessage());
  }

  @Test
  void shouldRejectNonFiniteNumbersAsBadJson() {
    final RequestException e = assertThrows(RequestException.class, () -> convert("[NaN]"));
    assertTrue(e.getMessage().startsWith("Parameters is not valid JSON"), e.getMessage());
  }

  @Test
  void shouldRejectTrailingContent() {
    final RequestException e = assertThrows(RequestException.class, () -> convert("[1] [2]"));
    assertTrue(e.getMessage().startsWith("Parameters is not valid JSON"), e.getMessage());
  }

  @Test
  void shouldRejectEmptyText() {
    final RequestException e = assertThrows(RequestException.class, () -> convert("  "));
    assertEquals("Parameters is empty; expected a JSON value", e.getMessage());
  }
}
