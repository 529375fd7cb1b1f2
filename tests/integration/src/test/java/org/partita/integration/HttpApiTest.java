package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * The HTTP/JSON API of a real Voter server, through java.net.http: calls by
 * GET, form POST and JSON POST, errors named as the binary protocol names
 * them, and the health check. What HTTP writes the binary client reads.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HttpApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static ServerProcess server;
  private static PartitaClient client;
  private static HttpClient http;

  @BeforeAll
  static void start() throws Exception {
    server = ServerProcess.voter(2);
    client = Clients.connect(server, "http-test");
    client.call("Initialize", 6, "A,B,C,D,E,F");
    http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(client, server);
  }

  private static URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.httpPort() + pathAndQuery);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> postJson(String body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri("/api/1.0/")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private static JsonNode okJson(HttpResponse<String> response) throws IOException {
    assertEquals(200, response.statusCode(), response.body());
    final JsonNode answer = JSON.readTree(response.body());
    assertEquals(1, answer.get("status").asInt(), response.body());
    assertEquals("SUCCESS", answer.get("statusString").asText());
    return answer;
  }

  /** The first row's first value of the first table. */
  private static JsonNode firstValue(JsonNode answer) {
    return answer.get("results").get(0).get("data").get(0).get(0);
  }

  @Test
  void aVoteByGetIsAnsweredWithItsResultTable() throws Exception {
    final HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/api/1.0/?Procedure=Vote&Parameters="
        + encode("[6175552001, 3, 2]"))).GET());
    final JsonNode answer = okJson(response);
    assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
    final JsonNode table = answer.get("results").get(0);
    assertEquals("RESULT", table.get("columns").get(0).get("name").asText());
    assertEquals("BIGINT", table.get("columns").get(0).get("type").asText());
    assertEquals(0, firstValue(answer).asLong(), "accepted");
    assertEquals("", answer.get("errorName").asText());
    assertEquals(0, answer.get("appStatus").asInt());
    assertEquals(1, Clients.queryLong(client, "SELECT COUNT(*) FROM votes WHERE phone_number = ?", 6175552001L),
        "the binary client sees the vote made over HTTP");
  }

  @Test
  void votesByFormPostFollowTheVoteRules() throws Exception {
    final long[] expected = {0, 0, 2, 1};
    final int[] contestants = {1, 2, 3, 7};
    for (int i = 0; i < expected.length; i++) {
      final String form = "Procedure=Vote&Parameters=" + encode("[2125552002, " + contestants[i] + ", 2]");
      final JsonNode answer = okJson(send(HttpRequest.newBuilder(uri("/api/1.0/"))
          .header("Content-Type", "application/x-www-form-urlencoded")
          .POST(HttpRequest.BodyPublishers.ofString(form))));
      assertEquals(expected[i], firstValue(answer).asLong(), "vote " + i);
    }
    assertEquals(2, client.call("@AdHoc", "SELECT COUNT(*) FROM votes WHERE phone_number = 2125552002").firstLong());
  }

  @Test
  void adHocByJsonPostReadsWhatTheBinaryClientWrote() throws Exception {
    for (int i = 0; i < 3; i++) {
      assertEquals(0, client.call("Vote", 4155552003L, 4 + i, 5L).firstLong());
    }
    final JsonNode answer = okJson(postJson("{\"Procedure\": \"@AdHoc\", \"Parameters\": [\"SELECT state,"
        + " contestant_number FROM votes WHERE phone_number = ? ORDER BY contestant_number\", 4155552003]}"));
    final JsonNode table = answer.get("results").get(0);
    assertEquals("STATE", table.get("columns").get(0).get("name").asText());
    assertEquals("VARCHAR", table.get("columns").get(0).get("type").asText());
    assertEquals("[[\"CA\",4],[\"CA\",5],[\"CA\",6]]", table.get("data").toString());
  }

  @Test
  void anUnknownProcedureHasTheErrorNameOfTheBinaryProtocol() throws Exception {
    final HttpResponse<String> response = postJson("{\"Procedure\": \"NoSuchProcedure\", \"Parameters\": [1]}");
    assertEquals(200, response.statusCode(), "the call was made; its status says it was rejected");
    final JsonNode answer = JSON.readTree(response.body());
    final ClientResponse binary = client.callAsync("NoSuchProcedure", 1L).join();
    assertEquals(ClientResponse.Status.REJECTED.wireCode(), answer.get("status").asInt());
    assertEquals("REJECTED", answer.get("statusString").asText());
    assertEquals("PROCEDURE_NOT_FOUND", answer.get("errorName").asText());
    assertEquals(binary.errorName(), answer.get("errorName").asText());
    assertEquals(binary.message(), answer.get("message").asText());
    assertEquals(0, answer.get("results").size());
  }

  @Test
  void aConstraintViolationHasTheErrorNameOfTheBinaryProtocol() throws Exception {
    final String sql = "INSERT INTO contestants VALUES (1, 'Again')";
    final JsonNode answer = JSON.readTree(postJson("{\"Procedure\": \"@AdHoc\", \"Parameters\": [\"" + sql
        + "\"]}").body());
    final ClientResponse binary = Clients.adHoc(client, sql);
    assertEquals(3, answer.get("status").asInt(), answer.toString());
    assertEquals("CONSTRAINT_VIOLATION", answer.get("errorName").asText());
    assertEquals(binary.errorName(), answer.get("errorName").asText());
    assertEquals(binary.status().wireCode(), answer.get("status").asInt());
  }

  @Test
  void aRequestWithoutProcedureIsABadRequestNamingTheField() throws Exception {
    final HttpResponse<String> response = postJson("{\"procedure\": \"Vote\"}");
    assertEquals(400, response.statusCode());
    final JsonNode answer = JSON.readTree(response.body());
    assertEquals("BAD_REQUEST", answer.get("errorName").asText());
    assertTrue(answer.get("message").asText().contains("procedure"), answer.get("message").asText());
  }

  @Test
  void healthSaysOkWhileServing() throws Exception {
    final HttpResponse<String> get = send(HttpRequest.newBuilder(uri("/health")).GET());
    assertEquals(200, get.statusCode());
    assertEquals("ok", JSON.readTree(get.body()).get("status").asText());
    assertEquals("no-store", get.headers().firstValue("Cache-Control").orElse(""));
    final HttpResponse<String> head = send(HttpRequest.newBuilder(uri("/health"))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
  }
}
