package org.partita.examples.voter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application against a real two-site server: it votes for a few
 * seconds, serves the page, is healthy, counts its votes in Micrometer,
 * and once stopped, the page's JSON, the firehose's tally and Results read
 * straight through the Java client all agree.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"voter.burst=200", "voter.max-in-flight=500"})
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SpringVoterIntegrationTest {
  private static final long VOTES_WANTED = 5_000;
  private static final long VOTING_SECONDS = 30;
  private static final LocalServer SERVER = startServer();

  @Autowired
  private TestRestTemplate http;
  @Autowired
  private VoterRun run;
  @Autowired
  private VoteTally tally;
  @Autowired
  private ObjectMapper json;

  private static LocalServer startServer() {
    try {
      return LocalServer.start(2);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the Partita server", e);
    }
  }

  @DynamicPropertySource
  static void servers(DynamicPropertyRegistry registry) {
    registry.add("voter.servers", SERVER::address);
  }

  @AfterAll
  static void stopServer() throws Exception {
    SERVER.close();
  }

  @Test
  void shouldVoteAndShowResultsThatAgreeWithTheDatabase() throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(VOTING_SECONDS);
    while (tally.acceptedTotal() < VOTES_WANTED && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(tally.acceptedTotal() >= VOTES_WANTED, "accepted only " + tally.acceptedTotal());
    assertTrue(http.getForObject("/", String.class).contains("Voter results"));
    final JsonNode health = json.readTree(http.getForObject("/actuator/health", String.class));
    assertEquals("UP", health.path("components").path("partita").path("status").asText(), health.toString());
    assertEquals("UP", health.path("components").path("db").path("status").asText(), health.toString());

    final RunSummary summary = run.finish();
    assertTrue(summary.consistent(), String.join("\n", summary.lines()));
    assertEquals(0, summary.failed());

    final JsonNode page = json.readTree(http.getForObject("/api/results", String.class));
    final Map<Integer, Long> shown = new TreeMap<>();
    page.path("contestants").forEach(c -> shown.put(c.path("number").asInt(), c.path("votes").asLong()));
    assertEquals(resultsThroughTheClient(), shown);
    assertEquals(summary.accepted(), page.path("totalVotes").asLong(), "a fresh server: every vote is the run's");

    final JsonNode metric = json.readTree(http.getForObject("/actuator/metrics/voter.votes", String.class));
    assertEquals(summary.calls(), metric.path("measurements").get(0).path("value").asLong());
  }

  private static Map<Integer, Long> resultsThroughTheClient() {
    try (PartitaClient client = new PartitaClient()) {
      client.connect(SERVER.address());
      final ResultTable t = client.call("Results").results().get(0);
      final Map<Integer, Long> standings = new TreeMap<>();
      while (t.advanceRow()) {
        standings.put((int) t.getLong("CONTESTANT_NUMBER"), t.getLong("TOTAL_VOTES"));
      }
      return standings;
    }
  }
}
