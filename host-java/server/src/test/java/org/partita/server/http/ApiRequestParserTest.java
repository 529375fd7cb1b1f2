package org.partita.server.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ApiRequestParserTest {
  private static ApiCall get(String uri) {
    final FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, uri);
    try {
      return ApiRequestParser.parse(request);
    } finally {
      request.release();
    }
  }

  private static ApiCall post(String contentType, String body) {
    final FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/api/1.0/",
        Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
    if (contentType != null) {
      request.headers().set("Content-Type", contentType);
    }
    try {
      return ApiRequestParser.parse(request);
    } finally {
      request.release();
    }
  }

  private static void assertBadRequest(String expected, Runnable parse) {
    final RequestException e = assertThrows(RequestException.class, parse::run);
    assertEquals(HttpResponseStatus.BAD_REQUEST, e.status());
    assertEquals(expected, e.getMessage());
  }

  @Test
  void shouldReadACallFromTheQueryString() {
    final ApiCall call = get("/api/1.0/?Procedure=Vote&Parameters=%5B1%2C%22a%20b%22%2C2.5%5D");
    assertEquals("Vote", call.procedure());
    assertArrayEquals(new Object[] {1L, "a b", new BigDecimal("2.5")}, call.parameters());
  }

  @Test
  void shouldTreatSemicolonsAsText() {
    final ApiCall call = get("/api/1.0?Procedure=@AdHoc&Parameters=[\"SELECT 1;\"]");
    assertArrayEquals(new Object[] {"SELECT 1;"}, call.parameters());
  }

  @Test
  void shouldReadACallWithoutParameters() {
    assertEquals(0, get("/api/1.0/?Procedure=Ping").parameters().length);
    assertEquals(0, post("application/json", "{\"Procedure\": \"Ping\"}").parameters().length);
  }

  @Test
  void shouldReadACallFromAForm() {
    final ApiCall call = post("application/x-www-form-urlencoded; charset=UTF-8",
        "Procedure=%40AdHoc&Parameters=%5B%22SELECT+*+FROM+t+WHERE+x+%3D+%3F%22%2C+7%5D");
    assertEquals("@AdHoc", call.procedure());
    assertArrayEquals(new Object[] {"SELECT * FROM t WHERE x = ?", 7L}, call.parameters());
  }

  @Test
  void shouldReadACallFromAJsonBody() {
    final ApiCall call = post("application/json; charset=utf-8",
        "{\"Procedure\": \"Insert\", \"Parameters\": [1, null, {\"hex\": \"ff\"}]}");
    assertEquals("Insert", call.procedure());
    assertEquals(1L, call.parameters()[0]);
    assertEquals(null, call.parameters()[1]);
    assertArrayEquals(new byte[] {(byte) 0xff}, (byte[]) call.parameters()[2]);
  }

  @Test
  void shouldRejectAMissingProcedure() {
    assertBadRequest("missing Procedure: name the procedure to call", () -> get("/api/1.0/?Parameters=[1]"));
    assertBadRequest("missing Procedure: name the procedure to call", () -> post("application/json", "{}"));
    assertBadRequest("Procedure is empty: name the procedure to call", () -> get("/api/1.0/?Procedure="));
  }

  @Test
  void shouldRejectUnknownOrMisspelledFields() {
    assertBadRequest("unknown field \"procedure\"; expected Procedure and optionally Parameters and Timeout"
        + " (names are case-sensitive)", () -> post("application/json", "{\"procedure\": \"X\"}"));
    assertBadRequest("unknown field \"Params\"; expected Procedure and optionally Parameters and Timeout"
        + " (names are case-sensitive)", () -> get("/api/1.0/?Procedure=X&Params=[]"));
  }

  @Test
  void shouldReadTheCallsTimeLimit() {
    assertEquals(2500, get("/api/1.0/?Procedure=X&Timeout=2500").timeoutMillis());
    assertEquals(0, get("/api/1.0/?Procedure=X").timeoutMillis());
    assertEquals(3_600_000, post("application/json", "{\"Procedure\": \"X\", \"Timeout\": 3600000}")
        .timeoutMillis());
  }

  @Test
  void shouldRejectANegativeOversizedOrNonNumericTimeLimit() {
    assertBadRequest("Timeout must be from 0 (the server's default) to 3600000 milliseconds (1 h), got -5",
        () -> get("/api/1.0/?Procedure=X&Timeout=-5"));
    assertBadRequest("Timeout must be from 0 (the server's default) to 3600000 milliseconds (1 h), got 3600001",
        () -> post("application/json", "{\"Procedure\": \"X\", \"Timeout\": 3600001}"));
    assertBadRequest("Timeout must be a whole number of milliseconds, not '10s'",
        () -> get("/api/1.0/?Procedure=X&Timeout=10s"));
    assertBadRequest("Timeout must be a whole number of milliseconds, not a string",
        () -> post("application/json", "{\"Procedure\": \"X\", \"Timeout\": \"10\"}"));
  }

  @Test
  void shouldRejectRepeatedFields() {
    assertBadRequest("Procedure is given 2 times", () -> get("/api/1.0/?Procedure=X&Procedure=Y"));
  }

  @Test
  void shouldRejectABodyThatIsNotACallObject() {
    assertBadRequest("the body must be a JSON object {\"Procedure\": ..., \"Parameters\": [...]}, not an array",
        () -> post("application/json", "[\"X\"]"));
    assertBadRequest("Procedure must be a string, not a number", () -> post("application/json", "{\"Procedure\": 1}"));
    assertBadRequest("Parameters must be a JSON array, not a string",
        () -> post("application/json", "{\"Procedure\": \"X\", \"Parameters\": \"[1]\"}"));
  }

  @Test
  void shouldRejectBadJsonNamingWhere() {
    final RequestException e = assertThrows(RequestException.class,
        () -> post("application/json", "{\"Procedure\": \"X\",\n \"Parameters\": [1,]}"));
    assertTrue(e.getMessage().startsWith("the body is not valid JSON at line 2, column 19: "), e.getMessage());
    assertBadRequest("the body is empty; expected a JSON value", () -> post("application/json", ""));
  }

  @Test
  void shouldRejectDuplicateJsonKeys() {
    final RequestException e = assertThrows(RequestException.class,
        () -> post("application/json", "{\"Procedure\": \"X\", \"Procedure\": \"Y\"}"));
    assertTrue(e.getMessage().contains("Duplicate field 'Procedure'"), e.getMessage());
  }

  @Test
  void shouldRejectBadParametersInTheQueryString() {
    assertBadRequest("Parameters[0]: nested arrays are not supported",
        () -> get("/api/1.0/?Procedure=X&Parameters=[[1]]"));
    final RequestException e = assertThrows(RequestException.class,
        () -> get("/api/1.0/?Procedure=X&Parameters=[1"));
    assertTrue(e.getMessage().startsWith("Parameters is not valid JSON at line 1, column "), e.getMessage());
  }

  @Test
  void shouldRejectMalformedPercentEncoding() {
    final RequestException e = assertThrows(RequestException.class, () -> get("/api/1.0/?Procedure=%zz"));
    assertTrue(e.getMessage().startsWith("the query string is malformed: "), e.getMessage());
  }

  @Test
  void shouldRejectOtherBodyTypesWith415() {
    final RequestException e = assertThrows(RequestException.class, () -> post("text/plain", "Procedure=X"));
    assertEquals(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, e.status());
    assertEquals("a POST body must be application/json or application/x-www-form-urlencoded, not text/plain",
        e.getMessage());
    final RequestException untyped = assertThrows(RequestException.class, () -> post(null, "Procedure=X"));
    assertEquals("a POST body must be application/json or application/x-www-form-urlencoded, not untyped (no"
        + " Content-Type header)", untyped.getMessage());
  }
}
