package org.partita.bench.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.PartitaClient;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;

/** The driver end to end against a server started in this JVM (loopback, ephemeral port). */
@Timeout(120)
class KvDriverTest {
  private static PartitaServer server;
  private static String address;

  @TempDir
  Path dir;

  @BeforeAll
  static void startServer() throws Exception {
    server = PartitaServer.start(ServerOptions.ephemeral(List.of(Path.of("ddl.sql")), 2));
    address = "127.0.0.1:" + server.clientPort();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private JsonNode runDriver(String... options) throws Exception {
    final Path json = dir.resolve("result.json");
    final List<String> args = new java.util.ArrayList<>(List.of("--servers", address, "--duration", "3",
        "--warmup", "0.5", "--display-interval", "1", "--preload", "2000", "--key-size", "12",
        "--value-size", "256", "--json", json.toString()));
    args.addAll(List.of(options));
    assertEquals(0, KvDriver.commandLine().execute(args.toArray(String[]::new)), "exit code");
    return new ObjectMapper().readTree(json.toFile());
  }

  private static void assertHealthy(JsonNode r) {
    assertTrue(r.get("consistent").asBoolean(), r::toString);
    assertEquals(0, r.get("failed").asLong(), r::toString);
    assertEquals(0, r.get("get_misses").asLong(), "every key was preloaded: " + r);
    assertTrue(r.get("gets").asLong() > 0 && r.get("puts").asLong() > 0, r::toString);
    assertTrue(r.get("tps").asDouble() > 0, r::toString);
    assertTrue(r.get("verified").asLong() >= 1000, r::toString);
    assertTrue(r.get("p50_ms").asDouble() <= r.get("p99_ms").asDouble(), r::toString);
    assertTrue(r.get("p99_ms").asDouble() <= r.get("max_ms").asDouble(), r::toString);
    assertEquals(3.0, r.get("duration_s").asDouble(), 0.5, r::toString);
    for (String field : List.of("p95_ms", "p999_ms", "avg_ms", "servers")) {
      assertTrue(r.has(field), field);
    }
  }

  @Test
  void shouldRunAsynchronouslyAndFindEveryLastWrite() throws Exception {
    final JsonNode r = runDriver("--mode", "async");
    assertHealthy(r);
    assertEquals("async", r.get("mode").asText());
    assertEquals(address, r.get("servers").asText());
  }

  @Test
  void shouldRunSynchronouslyWithThreadsOnZipfKeys() throws Exception {
    final JsonNode r = runDriver("--mode", "sync", "--threads", "4", "--keys", "zipf", "--get-ratio", "0.5");
    assertHealthy(r);
    assertEquals("sync", r.get("mode").asText());
    assertEquals(4, r.get("threads").asInt());
    assertEquals("zipf", r.get("keys").asText());
  }

  @Test
  void shouldPaceAsynchronousCallsAtTheRateLimit() throws Exception {
    final JsonNode r = runDriver("--ratelimit", "2000");
    assertHealthy(r);
    assertEquals(2000, r.get("tps").asDouble(), 200, r::toString);
  }

  @Test
  void shouldDetectAValueThatIsNotTheLastOneWritten() throws Exception {
    final KeySpace keys = new KeySpace(50, 8);
    final ValueFactory values = new ValueFactory(64, 9);
    final WriteLog writes = new WriteLog(keys.count());
    try (PartitaClient client = new PartitaClient()) {
      client.connect(address);
      new Preloader(client, keys, values, writes, new AtomicLong()).run(System.out, 5);
      client.call(KvOperations.PUT, keys.key(7), values.value(999)); // a write the log does not know of
      final Verifier.Result result = new Verifier(client, keys, values, writes).verify(50, Long.MAX_VALUE, 1);
      assertFalse(result.consistent());
      assertEquals(1, result.mismatches());
      assertEquals(50, result.checked());
      assertTrue(result.examples().get(0).contains(keys.key(7)), result.examples()::toString);
    }
  }

  @Test
  void shouldRefuseAKeySizeTooSmallWithExitCodeTwo() {
    assertEquals(2, KvDriver.commandLine().execute("--servers", address, "--preload", "100000", "--key-size", "4"));
  }

  @Test
  void shouldRefuseAnUnknownModeWithExitCodeTwo() {
    assertEquals(2, KvDriver.commandLine().execute("--servers", address, "--mode", "fast"));
  }

  @Test
  void shouldExitWithOneWhenNoServerListens() throws Exception {
    final int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    assertEquals(1, KvDriver.commandLine().execute("--servers", "127.0.0.1:" + port, "--duration", "1"));
    assertFalse(Files.exists(dir.resolve("result.json")));
  }
}
