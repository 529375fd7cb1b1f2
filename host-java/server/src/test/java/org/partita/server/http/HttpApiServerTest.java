package org.partita.server.http;

import org.partita.proto.ErrorCode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

/** Calls, errors, health and shutdown over real HTTP. */
@Timeout(30)
class HttpApiServerTest {
  private HttpFixture http;

  @BeforeEach
  void start() throws Exception {
    http = new HttpFixture();
    http.dispatcher.answer = call -> ClientResponse.success(List.of(new ResultTableBuilder()
        .column("PROC", ValueType.VARCHAR).column("N", ValueType.INTEGER)
        .row(call.procedure(), call.parameters().length).build()));
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private static void assertEcho(HttpResponse<String> response, String procedure, int parameters) throws Exception {
    assertEquals(200, response.statusCode(), response.body());
    assertEquals("application/json", response.headers().firstValue("Content-Type").orElse(""));
    final JsonNode json = HttpFixture.json(response);
    assertEquals(1, json.get("status").intValue());
    assertEquals("SUCCESS", json.get("statusString").textValue());
    assertEquals(procedure, json.at("/results/0/data/0/0").textValue());
    assertEquals(parameters, json.at("/results/0/data/0/1").intValue());
  }

  private static void assertRejected(HttpResponse<String> response, int httpStatus, String errorName, String message)
      throws Exception {
    assertEquals(httpStatus, response.statusCode(), response.body());
    final JsonNode json = HttpFixture.json(response);
    assertEquals(4, json.get("status").intValue());
    assertEquals("REJECTED", json.get("statusString").textValue());
    assertEquals(errorName, json.get("errorName").textValue());
    assertEquals(message, json.get("message").textValue());
  }

  @Test
  void shouldCallAProcedureWithGet() throws Exception {
    assertEcho(http.get("/api/1.0/?Procedure=Vote&Parameters=%5B5551234%2C%22x%22%5D"), "Vote", 2);
    assertArrayEquals(new Object[] {5551234L, "x"}, http.dispatcher.onlyCall().parameters());
  }

  @Test
  void shouldAcceptTheApiPathWithoutTrailingSlash() throws Exception {
    assertEcho(http.get("/api/1.0?Procedure=Ping"), "Ping", 0);
  }

  @Test
  void shouldCallAProcedureWithAFormPost() throws Exception {
    assertEcho(http.post("/api/1.0/", "application/x-www-form-urlencoded",
        "Procedure=%40AdHoc&Parameters=%5B%22SELECT+1%22%5D"), "@AdHoc", 1);
    assertArrayEquals(new Object[] {"SELECT 1"}, http.dispatcher.onlyCall().parameters());
  }

  @Test
  void shouldCallAProcedureWithAJsonPost() throws Exception {
    assertEcho(http.postJson("{\"Procedure\": \"Insert\", \"Parameters\": [1, 2.50, \"s\", null, true,"
        + " {\"hex\": \"00ff\"}, {\"timestamp\": \"2026-11-22T10:00:00Z\"}]}"), "Insert", 7);
    final Object[] p = http.dispatcher.onlyCall().parameters();
    assertEquals(1L, p[0]);
    assertEquals(new BigDecimal("2.50"), p[1]);
    assertEquals("s", p[2]);
    assertEquals(null, p[3]);
    assertEquals(1L, p[4]);
    assertArrayEquals(new byte[] {0, (byte) 0xff}, (byte[]) p[5]);
    assertEquals(Instant.parse("2026-11-22T10:00:00Z"), p[6]);
  }

  @Test
  void shouldAnswerResponsesGivenOnAnotherThread() throws Exception {
    final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
    try {
      http.dispatcher.answerOn = task -> later.schedule(task, 20, TimeUnit.MILLISECONDS);
      assertEcho(http.get("/api/1.0/?Procedure=Slow"), "Slow", 0);
    } finally {
      later.shutdownNow();
    }
  }

  @Test
  void shouldPassFailuresThroughWithStatus200() throws Exception {
    http.dispatcher.answer = call -> ClientResponse.failure(ClientResponse.Status.GRACEFUL_FAILURE,
        ErrorCode.ERROR_CODE_CONSTRAINT_VIOLATION, "duplicate key 7 in T").withAppStatus(2, "dup");
    final HttpResponse<String> response = http.get("/api/1.0/?Procedure=Insert&Parameters=[7]");
    assertEquals(200, response.statusCode());
    final JsonNode json = HttpFixture.json(response);
    assertEquals(3, json.get("status").intValue());
    assertEquals("GRACEFUL_FAILURE", json.get("statusString").textValue());
    assertEquals("CONSTRAINT_VIOLATION", json.get("errorName").textValue());
    assertEquals("duplicate key 7 in T", json.get("message").textValue());
    assertEquals(2, json.get("appStatus").intValue());
    assertEquals("dup", json.get("appStatusMessage").textValue());
    assertEquals(0, json.get("results").size());
  }

  @Test
  void shouldPassRejectionsOfTheDispatcherThroughWithStatus200() throws Exception {
    http.dispatcher.answer = call -> ClientResponse.failure(ClientResponse.Status.REJECTED, ErrorCode.ERROR_CODE_NOT_FOUND,
        "no procedure named Nope");
    assertRejected(http.get("/api/1.0/?Procedure=Nope"), 200, "NOT_FOUND", "no procedure named Nope");
  }

  @Test
  void shouldKeepDecimalsExactEndToEnd() throws Exception {
    http.dispatcher.answer = call -> ClientResponse.success(List.of(new ResultTableBuilder()
        .column("D", ValueType.DECIMAL).row(call.parameters()[0]).build()));
    final HttpResponse<String> response = http.postJson(
        "{\"Procedure\": \"Echo\", \"Parameters\": [12345678901234567890.123456789012]}");
    assertEquals(200, response.statusCode());
    assertTrue(response.body().contains("\"data\":[[12345678901234567890.123456789012]]"), response.body());
  }

  @Test
  void shouldAnswer400NamingTheBadParameter() throws Exception {
    assertRejected(http.postJson("{\"Procedure\": \"X\", \"Parameters\": [1, 2, [3]]}"), 400, "BAD_REQUEST",
        "Parameters[2]: nested arrays are not supported");
    assertEquals(0, http.dispatcher.calls.size());
  }

  @Test
  void shouldAnswer400ForAMissingProcedure() throws Exception {
    assertRejected(http.get("/api/1.0/"), 400, "BAD_REQUEST", "missing Procedure: name the procedure to call");
  }

  @Test
  void shouldAnswer400ForBadJson() throws Exception {
    final HttpResponse<String> response = http.postJson("{\"Procedure\": ");
    assertEquals(400, response.statusCode());
    assertTrue(HttpFixture.json(response).get("message").textValue().startsWith("the body is not valid JSON at line 1"),
        response.body());
  }

  @Test
  void shouldAnswer415ForAnUnknownBodyType() throws Exception {
    assertRejected(http.post("/api/1.0/", "text/plain", "hello"), 415, "UNSUPPORTED_MEDIA_TYPE",
        "a POST body must be application/json or application/x-www-form-urlencoded, not text/plain");
  }

  @Test
  void shouldAnswer405ForOtherMethods() throws Exception {
    final HttpResponse<String> response = http.send(HttpRequest.newBuilder(http.uri("/api/1.0/?Procedure=X"))
        .method("DELETE", HttpRequest.BodyPublishers.noBody()));
    assertRejected(response, 405, "METHOD_NOT_ALLOWED", "DELETE is not allowed on /api/1.0/; use GET, POST");
    assertEquals("GET, POST", response.headers().firstValue("Allow").orElse(""));
    assertRejected(http.post("/health", "application/json", "{}"), 405, "METHOD_NOT_ALLOWED",
        "POST is not allowed on /health; use GET, HEAD");
  }

  @Test
  void shouldAnswer404ForUnknownPaths() throws Exception {
    assertRejected(http.get("/api/2.0/?Procedure=X"), 404, "NOT_FOUND", "nothing at /api/2.0/");
    assertRejected(http.get("/"), 404, "NOT_FOUND", "nothing at /");
  }

  @Test
  void shouldAnswerHealthOk() throws Exception {
    final HttpResponse<String> response = http.get("/health");
    assertEquals(200, response.statusCode());
    assertEquals("{\"status\":\"ok\"}", response.body());
  }

  @Test
  void shouldAnswerHealthHeadWithoutBody() throws Exception {
    final HttpResponse<String> response = http.send(HttpRequest.newBuilder(http.uri("/health"))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertEquals(200, response.statusCode());
    assertEquals("", response.body());
  }

  @Test
  void shouldAnswer503WhileShuttingDown() throws Exception {
    http.server.setShuttingDown();
    final HttpResponse<String> health = http.get("/health");
    assertEquals(503, health.statusCode());
    assertEquals("{\"status\":\"shutting down\"}", health.body());
    assertRejected(http.get("/api/1.0/?Procedure=X"), 503, "SHUTTING_DOWN",
        "the server is shutting down and accepts no new calls");
    assertEquals(0, http.dispatcher.offers.get());
  }

  @Test
  void shouldRefuseToStartTwice() {
    final EventLoopGroup group = new NioEventLoopGroup(1);
    try {
      assertThrows(IllegalStateException.class,
          () -> http.server.start("127.0.0.1", 0, group, group, NioServerSocketChannel.class));
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
