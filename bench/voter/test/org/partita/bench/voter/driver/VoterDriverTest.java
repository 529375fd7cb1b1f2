package org.partita.bench.voter.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;

/** The driver run in process against a real server (Voter schema, 2 sites, loopback, ephemeral ports). */
@Timeout(120)
class VoterDriverTest {
  private static final List<String> JSON_FIELDS = List.of("tps", "p50_ms", "p95_ms", "p99_ms", "p999_ms", "max_ms",
      "avg_ms", "accepted", "over_limit", "invalid", "failed", "consistent", "duration_s", "mode", "threads",
      "servers");
  private static PartitaServer server;

  @TempDir
  Path dir;
  private final ByteArrayOutputStream output = new ByteArrayOutputStream();

  @BeforeAll
  static void startServer() throws Exception {
    server = PartitaServer.start(ServerOptions.ephemeral(List.of(Path.of("ddl.sql")), 2));
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private int drive(String... options) {
    final List<String> args = new ArrayList<>(List.of("--servers", "127.0.0.1:" + server.clientPort()));
    args.addAll(List.of(options));
    return VoterDriver.execute(new PrintStream(output, true, StandardCharsets.UTF_8), args.toArray(new String[0]));
  }

  private String printed() {
    return output.toString(StandardCharsets.UTF_8);
  }

  private JsonNode runAndReadJson(String... options) throws Exception {
    final Path json = dir.resolve("result.json");
    final List<String> args = new ArrayList<>(List.of(options));
    args.addAll(List.of("--json", json.toString()));
    assertEquals(0, drive(args.toArray(new String[0])), this::printed);
    final JsonNode result = new ObjectMapper().readTree(Files.readString(json));
    for (String field : JSON_FIELDS) {
      assertTrue(result.has(field), "JSON has no " + field + ": " + result);
    }
    assertTrue(result.get("consistent").asBoolean(), printed());
    return result;
  }

  private static void assertSaneLatency(JsonNode r) {
    final double p50 = r.get("p50_ms").asDouble();
    assertTrue(p50 > 0, r::toString);
    assertTrue(p50 <= r.get("p95_ms").asDouble() && r.get("p95_ms").asDouble() <= r.get("p99_ms").asDouble()
        && r.get("p99_ms").asDouble() <= r.get("p999_ms").asDouble()
        && r.get("p999_ms").asDouble() <= r.get("max_ms").asDouble(), r::toString);
  }

  @Test
  void shouldRunAsyncFirehoseAndAgreeWithTheDatabase() throws Exception {
    final JsonNode r = runAndReadJson("--duration", "3", "--warmup", "1", "--display-interval", "1");
    assertEquals("async", r.get("mode").asText());
    assertEquals(1, r.get("threads").asInt());
    assertTrue(r.get("accepted").asLong() > 1000, r::toString);
    assertTrue(r.get("invalid").asLong() > 0, r::toString);
    assertEquals(0, r.get("failed").asLong(), r::toString);
    assertTrue(r.get("tps").asDouble() > 0, r::toString);
    assertEquals(3.0, r.get("duration_s").asDouble(), 1.0);
    assertSaneLatency(r);
    final String text = printed();
    assertTrue(text.contains("calls/s") && text.contains("warm-up") && text.contains(" run "), text);
    assertTrue(text.contains("consistency OK") && text.contains("Edwina Burnam"), text);
  }

  @Test
  void shouldRunSyncThreadsAndAgreeWithTheDatabase() throws Exception {
    final JsonNode r = runAndReadJson("--mode", "sync", "--threads", "4", "--duration", "3", "--warmup", "1",
        "--display-interval", "1");
    assertEquals("sync", r.get("mode").asText());
    assertEquals(4, r.get("threads").asInt());
    assertTrue(r.get("accepted").asLong() > 100, r::toString);
    assertEquals(0, r.get("failed").asLong(), r::toString);
    assertSaneLatency(r);
  }

  @Test
  void shouldHoldTheRateLimitInBothModes() throws Exception {
    final JsonNode async = runAndReadJson("--ratelimit", "2000", "--duration", "2", "--warmup", "0.5");
    assertEquals(2000, async.get("tps").asDouble(), 300, async::toString);
    final JsonNode sync = runAndReadJson("--mode", "sync", "--threads", "4", "--ratelimit", "1000", "--duration",
        "2", "--warmup", "0.5");
    assertEquals(1000, sync.get("tps").asDouble(), 150, sync::toString);
  }

  @Test
  void shouldRejectBadOptionsWithExitCode2() {
    assertEquals(2, drive("--mode", "fast"));
    assertEquals(2, drive("--duration", "0"));
    assertEquals(2, drive("--threads", "0"));
    assertEquals(2, drive("--contestants", "0"));
    assertEquals(2, drive("--ratelimit", "-5"));
  }

  @Test
  void shouldExitWith3WhenNoServerAnswers() throws Exception {
    final int unused;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      unused = probe.getLocalPort();
    }
    assertEquals(3, VoterDriver.execute(new PrintStream(output, true, StandardCharsets.UTF_8), "--servers",
        "127.0.0.1:" + unused, "--duration", "1", "--warmup", "0"));
  }
}
