package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import org.partita.client.TlsOptions;

/**
 * A server with users and TLS on both ports (certificates made at test
 * time): clients that trust it log in; a plaintext client, a client that
 * trusts another certificate and a client without the required client
 * certificate are refused clearly; HTTPS with Basic works.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
final class TlsTest {
  private static Path dir;
  private static ServerProcess server;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("partita-tls-");
    final Path users = SecurityFixture.users(dir);
    final Path serverStore = SecurityFixture.keyStore(dir, "server");
    SecurityFixture.keyStore(dir, "stranger");
    SecurityFixture.keyStore(dir, "client");
    server = ServerProcess.start(java.util.List.of("--schema", schema().toString(), "--sites", "2",
        "--users", users.toString(), "--tls-keystore", serverStore.toString(),
        "--tls-client-ca", dir.resolve("client.pem").toString()),
        Map.of("PARTITA_TLS_KEYSTORE_PASSWORD", SecurityFixture.STORE_PASSWORD));
  }

  private static Path schema() throws Exception {
    return Path.of(TlsTest.class.getResource("/security.sql").toURI());
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(server);
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  /** The server's client port by the name its certificate carries. */
  private static String byName() {
    return "localhost:" + server.clientPort();
  }

  private static TlsOptions.Builder trustingServer() {
    return TlsOptions.builder().trustCertificates(dir.resolve("server.pem"))
        .keyStore(dir.resolve("client.p12"), SecurityFixture.STORE_PASSWORD);
  }

  @Test
  void shouldLogInOverTlsWhenTheClientTrustsTheServer() {
    final ClientConfig config = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .tls(trustingServer().build()).build();
    try (PartitaClient client = SecurityFixture.connect(byName(), config)) {
      client.call("@AdHoc", "INSERT INTO accounts VALUES (7, 70)");
      assertEquals(70, client.call("@AdHoc", "SELECT balance FROM accounts WHERE id = 7").firstLong());
    }
  }

  @Test
  void shouldRefuseAPlaintextClient() {
    final ClientConfig plain = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD).build();
    final PartitaClientException e = assertThrows(PartitaClientException.class,
        () -> SecurityFixture.connect(byName(), plain));
    assertTrue(e.getMessage().contains("closed before login") && e.getMessage().contains("requires TLS"),
        e.getMessage());
    assertTrue(server.isAlive());
  }

  @Test
  void shouldRefuseAServerTheClientDoesNotTrust() {
    final ClientConfig config = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .tls(TlsOptions.builder().trustCertificates(dir.resolve("stranger.pem"))
            .keyStore(dir.resolve("client.p12"), SecurityFixture.STORE_PASSWORD).build()).build();
    final PartitaClientException e = assertThrows(PartitaClientException.class,
        () -> SecurityFixture.connect(byName(), config));
    assertTrue(e.getMessage().contains("certification path"), e.getMessage());
  }

  @Test
  void shouldRefuseAClientWithoutTheRequiredCertificate() {
    final ClientConfig config = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .tls(TlsOptions.builder().trustCertificates(dir.resolve("server.pem")).build()).build();
    assertThrows(PartitaClientException.class, () -> SecurityFixture.connect(byName(), config));
    assertTrue(server.output().contains("TLS failed"), server.output());
  }

  @Test
  void shouldCheckTheHostNameByDefault() {
    final ClientConfig config = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .tls(trustingServer().build()).build();
    final PartitaClientException e = assertThrows(PartitaClientException.class,
        () -> SecurityFixture.connect(server.address(), config));
    assertTrue(e.getMessage().contains("127.0.0.1") && e.getMessage().contains("subject alternative"),
        e.getMessage());
    final ClientConfig lenient = SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .tls(trustingServer().verifyHostname(false).build()).build();
    try (PartitaClient client = SecurityFixture.connect(server.address(), lenient)) {
      assertTrue(client.call("@Ping").ok());
    }
  }

  @Test
  void shouldServeHttpsWithBasicCredentials() throws Exception {
    final KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(dir.resolve("server.pem"))) {
      trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    final TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    final javax.net.ssl.KeyManagerFactory kmf = javax.net.ssl.KeyManagerFactory.getInstance(
        javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
    final KeyStore clientKeys = KeyStore.getInstance(dir.resolve("client.p12").toFile(),
        SecurityFixture.STORE_PASSWORD.toCharArray());
    kmf.init(clientKeys, SecurityFixture.STORE_PASSWORD.toCharArray());
    final SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    final HttpClient http = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
    final HttpRequest request = HttpRequest.newBuilder(URI.create("https://localhost:" + server.httpPort()
        + "/api/1.0/?Procedure=@Ping")).timeout(Duration.ofSeconds(10))
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
            ("alice:" + SecurityFixture.ALICE_PASSWORD).getBytes(StandardCharsets.UTF_8))).build();
    final HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    assertTrue(response.body().contains("pong"), response.body());
  }
}
