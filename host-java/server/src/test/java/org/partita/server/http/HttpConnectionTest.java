package org.partita.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

/** Connection behaviour: keep-alive, pipelining, limits, backpressure and bad bytes. */
@Timeout(30)
class HttpConnectionTest {
  private HttpFixture http;
  private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();

  private void start(HttpApiLimits limits) throws Exception {
    http = new HttpFixture(null, limits);
    http.dispatcher.answer = call -> ClientResponse.success(List.of(new ResultTableBuilder()
        .column("PROC", ValueType.VARCHAR).row(call.procedure()).build()));
  }

  @AfterEach
  void stop() {
    later.shutdownNow();
    if (http != null) {
      http.close();
    }
  }

  private static String get(String procedure) {
    return "GET /api/1.0/?Procedure=" + procedure + " HTTP/1.1\r\nHost: x\r\n\r\n";
  }

  private static String procedureOf(RawHttp.Response response) throws Exception {
    assertNotNull(response, "the server closed the connection instead of answering");
    assertEquals(200, response.status(), response.body());
    return HttpFixture.JSON.readTree(response.body()).at("/results/0/data/0/0").textValue();
  }

  @Test
  void shouldAnswerSeveralRequestsOnOneKeptAliveConnection() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      for (String procedure : List.of("A", "B", "C")) {
        raw.send(get(procedure));
        assertEquals(procedure, procedureOf(raw.read()));
      }
    }
  }

  @Test
  void shouldAnswerPipelinedRequestsInOrderWhenAnswersComeBackOutOfOrder() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    // The first call answers last if calls overlap: slowest first.
    http.dispatcher.answerOn = task -> later.schedule(task, 5, TimeUnit.MILLISECONDS);
    http.dispatcher.answer = call -> {
      sleepQuietly(call.procedure().equals("P0") ? 100 : 0);
      return ClientResponse.success(List.of(new ResultTableBuilder()
          .column("PROC", ValueType.VARCHAR).row(call.procedure()).build()));
    };
    try (RawHttp raw = new RawHttp(http.port)) {
      final StringBuilder all = new StringBuilder();
      for (int i = 0; i < 5; i++) {
        all.append(get("P" + i));
      }
      all.append("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
      raw.send(all.toString());
      for (int i = 0; i < 5; i++) {
        assertEquals("P" + i, procedureOf(raw.read()));
      }
      assertEquals("{\"status\":\"ok\"}", raw.read().body());
    }
  }

  @Test
  void shouldCloseAfterAnHttp10RequestWithoutKeepAlive() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("GET /health HTTP/1.0\r\n\r\n");
      assertEquals(200, raw.read().status());
      assertTrue(raw.isClosedByServer());
    }
  }

  @Test
  void shouldCloseWhenTheClientAsksTo() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      final RawHttp.Response response = raw.read();
      assertEquals(200, response.status());
      assertEquals("close", response.header("Connection"));
      assertTrue(raw.isClosedByServer());
    }
  }

  @Test
  void shouldAnswer413ForAnOversizedBodyAndClose() throws Exception {
    start(HttpApiLimits.DEFAULTS.withMaxBodyBytes(100));
    final String body = "{\"Procedure\": \"X\", \"Parameters\": [\"" + "x".repeat(200) + "\"]}";
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("POST /api/1.0/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
          + body.length() + "\r\n\r\n" + body);
      final RawHttp.Response response = raw.read();
      assertEquals(413, response.status());
      final JsonNode json = HttpFixture.JSON.readTree(response.body());
      assertEquals("REQUEST_TOO_LARGE", json.get("errorName").textValue());
      assertEquals("the request body exceeds the limit of 100 bytes", json.get("message").textValue());
      assertTrue(raw.isClosedByServer());
    }
    assertEquals(0, http.dispatcher.offers.get());
  }

  @Test
  void shouldAnswer413ForAnOversizedChunkedBody() throws Exception {
    start(HttpApiLimits.DEFAULTS.withMaxBodyBytes(100));
    try (RawHttp raw = new RawHttp(http.port)) {
      final String chunk = "x".repeat(80);
      raw.send("POST /api/1.0/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n50\r\n" + chunk + "\r\n50\r\n" + chunk + "\r\n0\r\n\r\n");
      assertEquals(413, raw.read().status());
    }
  }

  @Test
  void shouldAnswer413WithoutContinueForAnOversizedExpectContinueRequest() throws Exception {
    start(HttpApiLimits.DEFAULTS.withMaxBodyBytes(100));
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("POST /api/1.0/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n"
          + "Expect: 100-continue\r\n\r\n");
      final RawHttp.Response response = raw.read();
      assertEquals(413, response.status());
      assertEquals("REQUEST_TOO_LARGE", HttpFixture.JSON.readTree(response.body()).get("errorName").textValue());
    }
  }

  @Test
  void shouldAnswerAPipelinedOversizedRequestInItsTurn() throws Exception {
    start(HttpApiLimits.DEFAULTS.withMaxBodyBytes(100));
    http.dispatcher.answerOn = task -> later.schedule(task, 50, TimeUnit.MILLISECONDS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send(get("First") + "POST /api/1.0/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
          + "Content-Length: 1000\r\n\r\n");
      assertEquals("First", procedureOf(raw.read()));
      assertEquals(413, raw.read().status());
    }
  }

  @Test
  void shouldRetryARefusedCallUntilTheDispatcherAcceptsIt() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    http.dispatcher.refuse(20);
    assertEquals(200, http.get("/api/1.0/?Procedure=Busy").statusCode());
    assertEquals(21, http.dispatcher.offers.get());
    assertEquals(1, http.dispatcher.calls.size());
  }

  @Test
  void shouldAnswer503WhenTheDispatcherKeepsRefusing() throws Exception {
    start(HttpApiLimits.DEFAULTS.withBusyTimeout(Duration.ofMillis(200)));
    http.dispatcher.refuse(Integer.MAX_VALUE);
    final long began = System.nanoTime();
    final var response = http.get("/api/1.0/?Procedure=Busy");
    assertTrue(System.nanoTime() - began >= Duration.ofMillis(200).toNanos());
    assertEquals(503, response.statusCode());
    assertEquals("1", response.headers().firstValue("Retry-After").orElse(""));
    final JsonNode json = HttpFixture.json(response);
    assertEquals("SERVER_BUSY", json.get("errorName").textValue());
    assertEquals("the server was too busy to accept the call for 200 ms; retry later", json.get("message").textValue());
    assertTrue(http.dispatcher.offers.get() > 1, "retried " + http.dispatcher.offers.get() + " times");
    assertEquals(0, http.dispatcher.calls.size());
    assertEquals(200, http.get("/health").statusCode());
  }

  @Test
  void shouldAnswerGarbageWith400AndKeepServingOthers() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send(new byte[] {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03, '\r', '\n',
          '\r', '\n'});
      final RawHttp.Response response = raw.read();
      if (response != null) {
        assertEquals(400, response.status(), response.body());
        assertEquals("BAD_REQUEST", HttpFixture.JSON.readTree(response.body()).get("errorName").textValue());
      }
      assertTrue(raw.isClosedByServer());
    }
    assertEquals(200, http.get("/health").statusCode());
  }

  @Test
  void shouldAnswerAMalformedRequestLineWith400() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("this is not http at all\r\n\r\n");
      final RawHttp.Response response = raw.read();
      assertEquals(400, response.status());
      assertTrue(HttpFixture.JSON.readTree(response.body()).get("message").textValue()
          .startsWith("malformed HTTP request: "), response.body());
      assertTrue(raw.isClosedByServer());
    }
  }

  @Test
  void shouldAnswerATooLongRequestLineWith400() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send(get("X" + "y".repeat(70_000)));
      final RawHttp.Response response = raw.read();
      assertEquals(400, response.status());
      assertTrue(response.body().contains("65536"), response.body());
    }
  }

  @Test
  void shouldAnswerAnAbsoluteFormTargetWith400() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("GET http://elsewhere/health HTTP/1.1\r\nHost: x\r\n\r\n");
      final RawHttp.Response response = raw.read();
      assertEquals(400, response.status());
      assertEquals("the request target must be a path starting with '/', not http://elsewhere/health",
          HttpFixture.JSON.readTree(response.body()).get("message").textValue());
    }
  }

  @Test
  void shouldCloseOpenConnectionsOnClose() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
      assertEquals(200, raw.read().status());
      http.server.close();
      assertTrue(raw.isClosedByServer());
    }
  }

  @Test
  void shouldDecodeUtf8Bodies() throws Exception {
    start(HttpApiLimits.DEFAULTS);
    final byte[] body = "{\"Procedure\": \"Grüße\"}".getBytes(StandardCharsets.UTF_8);
    try (RawHttp raw = new RawHttp(http.port)) {
      raw.send(("POST /api/1.0/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
          + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      raw.send(body);
      assertEquals("Grüße", procedureOf(raw.read()));
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
