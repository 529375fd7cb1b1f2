package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.LoginRefusedException;
import org.partita.client.PartitaClient;
import org.partita.client.internal.Scram;
import org.partita.client.internal.ScramClient;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.LoginContinue;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;

/**
 * A server started with {@code --users} (docs/security.md): logins (right,
 * wrong, unknown, none, replayed, fuzzed) over real sockets, and every
 * permission boundary over the binary protocol and HTTP.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
final class SecurityTest {
  private static Path dir;
  private static Path usersFile;
  private static ServerProcess server;
  private static PartitaClient admin;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("partita-security-");
    usersFile = SecurityFixture.users(dir);
    server = ServerProcess.schema("/security.sql", 2, "--users", usersFile.toString());
    admin = SecurityFixture.connect(server.address(), SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD)
        .build());
    admin.call("@AdHoc", "INSERT INTO accounts VALUES (1, 100)");
  }

  @AfterAll
  static void stop() throws Exception {
    Clients.closeAll(admin, server);
    if (dir != null) {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    }
  }

  private static PartitaClient login(String user, String password) {
    return SecurityFixture.connect(server.address(), SecurityFixture.as(user, password).build());
  }

  private static long balance() {
    return admin.call("@AdHoc", "SELECT balance FROM accounts WHERE id = 1").firstLong();
  }

  private static void assertDenied(ClientResponse r, String permission) {
    assertEquals("PERMISSION_DENIED", r.errorName(), r.toString());
    assertEquals(ClientResponse.Status.REJECTED, r.status(), r.toString());
    assertTrue(r.message().contains(permission), r.message());
  }

  @Test
  void shouldLogInAndNameTheUser() {
    try (PartitaClient alice = login("alice", SecurityFixture.ALICE_PASSWORD)) {
      assertEquals("pong", Clients.rows(alice.call("@Ping").results().get(0)).get(0).get(0));
    }
    assertTrue(server.output().contains("audit: login accepted: user=alice peer=127.0.0.1:"), server.output());
  }

  @Test
  void shouldAnswerAWrongPasswordAndAnUnknownUserAlikeAfterADelay() {
    final long start = System.nanoTime();
    final String wrong = assertThrows(LoginRefusedException.class, () -> login("alice", "nope")).getMessage();
    final long wrongMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    final String unknown = assertThrows(LoginRefusedException.class, () -> login("mallory", "nope")).getMessage();
    assertEquals(wrong, unknown);
    assertTrue(wrong.contains("authentication failed"), wrong);
    assertFalse(wrong.contains("alice") || wrong.contains("unknown user") || wrong.contains("wrong proof"), wrong);
    assertTrue(wrongMillis >= 900, "answered after " + wrongMillis + " ms");
    final String log = server.output();
    assertTrue(log.contains("audit: login refused: user=alice peer=127.0.0.1:"), log);
    assertTrue(log.contains("audit: login refused: user=mallory peer=127.0.0.1:"), log);
  }

  @Test
  void shouldTellAClientWithoutCredentialsWhatItNeeds() {
    final ClientConfig anonymous = ClientConfig.builder().reconnect(false).build();
    final LoginRefusedException e = assertThrows(LoginRefusedException.class,
        () -> SecurityFixture.connect(server.address(), anonymous));
    assertTrue(e.getMessage().contains("requires a user and password"), e.getMessage());
  }

  @Test
  void shouldRefuseAReplayedLogin() throws Exception {
    final ScramClient scram = new ScramClient("alice", SecurityFixture.ALICE_PASSWORD);
    final String clientFirst = scram.clientFirst();
    final String clientFinal;
    try (RawConnection first = new RawConnection(server.clientPort())) {
      final LoginResponse cont = scramStart(first, clientFirst);
      assertEquals(LoginStatus.LOGIN_STATUS_CONTINUE, cont.getStatus());
      clientFinal = scram.clientFinal(cont.getSaslData().toStringUtf8());
      final LoginResponse ok = scramFinish(first, clientFinal);
      assertEquals(LoginStatus.LOGIN_STATUS_OK, ok.getStatus(), ok.toString());
      assertEquals("alice", ok.getUser());
      assertTrue(scram.verifyServerFinal(ok.getSaslData().toStringUtf8()));
    }
    try (RawConnection replay = new RawConnection(server.clientPort())) {
      final LoginResponse cont = scramStart(replay, clientFirst);
      assertEquals(LoginStatus.LOGIN_STATUS_CONTINUE, cont.getStatus());
      final LoginResponse refused = scramFinish(replay, clientFinal);
      assertEquals(LoginStatus.LOGIN_STATUS_AUTHENTICATION_FAILED, refused.getStatus());
      assertEquals("authentication failed", refused.getMessage());
      assertTrue(replay.closedByServer());
    }
    assertTrue(server.output().contains("not this login's"), server.output());
  }

  private static LoginResponse scramStart(RawConnection c, String clientFirst) throws Exception {
    c.frame(ClientMessage.newBuilder().setLogin(LoginRequest.newBuilder().setProtocolVersion(1)
        .setSaslMechanism(Scram.MECHANISM).setSaslData(ByteString.copyFromUtf8(clientFirst))).build().toByteArray());
    return c.read().getLogin();
  }

  private static LoginResponse scramFinish(RawConnection c, String clientFinal) throws Exception {
    c.frame(ClientMessage.newBuilder().setLoginContinue(LoginContinue.newBuilder()
        .setSaslData(ByteString.copyFromUtf8(clientFinal))).build().toByteArray());
    return c.read().getLogin();
  }

  @Test
  void shouldKeepAUserToSqlAndGrantedProcedures() {
    try (PartitaClient alice = login("alice", SecurityFixture.ALICE_PASSWORD)) {
      assertEquals(1, Clients.queryLong(alice, "SELECT COUNT(*) FROM accounts WHERE id = 1"));
      assertTrue(Clients.adHoc(alice, "UPDATE accounts SET balance = balance WHERE id = 1").ok());
      assertDenied(Clients.adHoc(alice, "CREATE TABLE intruder (id INTEGER)"), "ADMIN");
      assertDenied(Clients.adHoc(alice, "DROP TABLE accounts"), "ADMIN");
      assertDenied(Clients.adHoc(alice, "GRANT EXECUTE ON Deposit TO user"), "ADMIN");
      assertDenied(alice.callAsync("@Shutdown").join(), "ADMIN");
      assertDenied(alice.callAsync("@Statistics", "PROCEDURE", 0).join(), "ADMIN");
      assertDenied(alice.callAsync("@CancelQuery", 0).join(), "ADMIN");
      assertDenied(alice.callAsync("Deposit", 5L, 1).join(), "EXECUTE");
      assertDenied(alice.callAsync("@UpdateUser", "x", "user", "y").join(), "ADMIN");
      assertTrue(alice.callAsync("@SystemCatalog", "TABLES").join().ok());
    }
    assertTrue(server.isAlive());
    assertEquals(1, admin.call("@AdHoc", "SELECT COUNT(*) FROM accounts").firstLong());
    assertTrue(server.output().contains("audit: permission denied: user=alice peer=127.0.0.1:"));
  }

  @Test
  void shouldLetARoleRunItsGrantedProcedureButNotWrite() {
    try (PartitaClient tina = login("tina", SecurityFixture.TINA_PASSWORD)) {
      final long before = balance();
      assertTrue(tina.callAsync("Deposit", 5L, 1).join().ok());
      assertEquals(before + 5, balance());
      assertDenied(tina.callAsync("Balance", 1).join(), "EXECUTE");
      assertDenied(Clients.adHoc(tina, "UPDATE accounts SET balance = 0"), "SQLWRITE");
      assertTrue(Clients.adHoc(tina, "SELECT balance FROM accounts").ok());
      assertTrue(tina.callAsync("@Explain", "SELECT balance FROM accounts").join().ok());
    }
  }

  @Test
  void shouldApplyGrantsAndRevokesAtOnce() {
    try (PartitaClient alice = login("alice", SecurityFixture.ALICE_PASSWORD)) {
      assertDenied(alice.callAsync("Balance", 1).join(), "EXECUTE");
      admin.call("@AdHoc", "GRANT EXECUTE ON PROCEDURE Balance TO user");
      assertTrue(alice.callAsync("Balance", 1).join().ok());
      admin.call("@AdHoc", "REVOKE EXECUTE ON PROCEDURE Balance FROM user");
      assertDenied(alice.callAsync("Balance", 1).join(), "EXECUTE");
    }
    assertTrue(server.output().contains("audit: ddl: user=admin peer=127.0.0.1:"), server.output());
  }

  @Test
  void shouldAddAndDropUsersAtRunTimeInTheUsersFile() throws Exception {
    final byte[] salt = Scram.salt(16);
    final byte[] salted = Scram.saltedPassword("bob-secret", salt, 4096);
    final String credential = "SCRAM-SHA-256$4096:" + Scram.base64(salt) + "$"
        + Scram.base64(Scram.storedKey(Scram.clientKey(salted))) + ":" + Scram.base64(Scram.serverKey(salted));
    admin.call("@UpdateUser", "bob", "user", credential);
    assertTrue(SecurityFixture.readAll(usersFile).contains("bob:user:SCRAM-SHA-256$4096:"));
    assertFalse(SecurityFixture.readAll(usersFile).contains("bob-secret"));
    try (PartitaClient bob = login("bob", "bob-secret")) {
      assertTrue(bob.call("@Ping").ok());
    }
    assertEquals("BAD_PARAMETER", admin.callAsync("@UpdateUser", "bob", "user", "plain-text").join().errorName());
    admin.call("@DropUser", "bob");
    assertFalse(SecurityFixture.readAll(usersFile).contains("bob:"));
    assertThrows(LoginRefusedException.class, () -> login("bob", "bob-secret"));
    assertTrue(server.output().contains("audit: admin call: user=admin peer=127.0.0.1:"));
  }

  @Test
  void shouldEnforceTheSamePermissionsOverHttp() throws Exception {
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final HttpResponse<String> none = http.send(api("@Ping", null), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, none.statusCode());
    assertTrue(none.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
    final HttpResponse<String> wrong = http.send(api("@Ping", "alice:wrong"), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, wrong.statusCode());
    assertTrue(wrong.body().contains("AUTHENTICATION_FAILED"), wrong.body());
    final HttpResponse<String> shutdown = http.send(api("@Shutdown", "alice:" + SecurityFixture.ALICE_PASSWORD),
        HttpResponse.BodyHandlers.ofString());
    assertTrue(shutdown.body().contains("PERMISSION_DENIED") && shutdown.body().contains("ADMIN"), shutdown.body());
    final HttpResponse<String> ddl = http.send(api("@AdHoc&Parameters=" + encode("[\"CREATE TABLE x (a INTEGER)\"]"),
        "alice:" + SecurityFixture.ALICE_PASSWORD), HttpResponse.BodyHandlers.ofString());
    assertTrue(ddl.body().contains("PERMISSION_DENIED"), ddl.body());
    final HttpResponse<String> ping = http.send(api("@Ping", "alice:" + SecurityFixture.ALICE_PASSWORD),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, ping.statusCode());
    assertTrue(ping.body().contains("pong"), ping.body());
    assertTrue(server.isAlive());
  }

  @Test
  void shouldIssueUseAndRevokeHttpTokens() throws Exception {
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final HttpResponse<String> issued = http.send(tokenRequest("POST", "Basic " + basic("alice:"
        + SecurityFixture.ALICE_PASSWORD)), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, issued.statusCode(), issued.body());
    assertEquals("no-store", issued.headers().firstValue("Cache-Control").orElse(""));
    final java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"token\":\"([^\"]+)\"").matcher(issued.body());
    assertTrue(m.find() && issued.body().contains("\"user\":\"alice\""), issued.body());
    final String bearer = "Bearer " + m.group(1);

    final HttpResponse<String> ping = http.send(apiWith("@Ping", bearer), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, ping.statusCode(), ping.body());
    assertTrue(ping.body().contains("pong"), ping.body());
    final HttpResponse<String> shutdown = http.send(apiWith("@Shutdown", bearer), HttpResponse.BodyHandlers.ofString());
    assertTrue(shutdown.body().contains("PERMISSION_DENIED") && shutdown.body().contains("ADMIN"), shutdown.body());
    // A token does not get another token, and no credentials get none.
    assertEquals(401, http.send(tokenRequest("POST", bearer), HttpResponse.BodyHandlers.ofString()).statusCode());
    assertEquals(401, http.send(tokenRequest("POST", null), HttpResponse.BodyHandlers.ofString()).statusCode());
    assertEquals(400, http.send(tokenRequest("DELETE", "Basic " + basic("alice:" + SecurityFixture.ALICE_PASSWORD)),
        HttpResponse.BodyHandlers.ofString()).statusCode());

    final HttpResponse<String> revoked = http.send(tokenRequest("DELETE", bearer), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, revoked.statusCode(), revoked.body());
    final HttpResponse<String> after = http.send(apiWith("@Ping", bearer), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, after.statusCode(), after.body());
    assertTrue(after.body().contains("AUTHENTICATION_FAILED"), after.body());
    final HttpResponse<String> forged = http.send(apiWith("@Ping", "Bearer ptk_" + "A".repeat(43)),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(401, forged.statusCode(), forged.body());
    assertTrue(server.output().contains("audit: http token issued: user=alice"), server.output());
    assertTrue(server.output().contains("audit: http token revoked: user=alice"), server.output());
    assertTrue(server.output().contains("audit: login accepted: user=alice peer=127.0.0.1:"));
    assertTrue(server.isAlive());
  }

  private static String basic(String userColonPassword) {
    return Base64.getEncoder().encodeToString(userColonPassword.getBytes(StandardCharsets.UTF_8));
  }

  private static HttpRequest tokenRequest(String method, String authorization) {
    final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
        + "/api/1.0/token")).timeout(Duration.ofSeconds(10)).method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    return b.build();
  }

  private static HttpRequest apiWith(String procedure, String authorization) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/api/1.0/?Procedure="
        + procedure)).timeout(Duration.ofSeconds(10)).header("Authorization", authorization).build();
  }

  private static String encode(String s) {
    return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static HttpRequest api(String procedureAndQuery, String userColonPassword) {
    final HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort()
        + "/api/1.0/?Procedure=" + procedureAndQuery)).timeout(Duration.ofSeconds(10));
    if (userColonPassword != null) {
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          userColonPassword.getBytes(StandardCharsets.UTF_8)));
    }
    return b.build();
  }

  @Test
  void shouldSurviveFuzzedLoginFramesWithoutChangingData() throws Exception {
    final long before = balance();
    final Random random = new Random(18);
    final List<byte[]> frames = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      final byte[] garbage = new byte[1 + random.nextInt(64)];
      random.nextBytes(garbage);
      frames.add(garbage);
      final byte[] sasl = new byte[random.nextInt(80)];
      random.nextBytes(sasl);
      frames.add(ClientMessage.newBuilder().setLogin(LoginRequest.newBuilder().setProtocolVersion(1)
          .setSaslMechanism(i % 3 == 0 ? "PLAIN" : Scram.MECHANISM).setSaslData(ByteString.copyFrom(sasl)))
          .build().toByteArray());
      frames.add(ClientMessage.newBuilder().setLoginContinue(LoginContinue.newBuilder()
          .setSaslData(ByteString.copyFrom(sasl))).build().toByteArray());
    }
    for (byte[] frame : frames) {
      try (RawConnection c = new RawConnection(server.clientPort())) {
        try {
          c.frame(frame);
          c.invoke(1, "Deposit", 1000L, 1L);
        } catch (java.net.SocketException e) {
          // Closed already, before the invocation was written: as good.
        }
        assertTrue(c.closedByServer(), "the server must close a connection whose login failed");
      }
    }
    try (RawConnection c = new RawConnection(server.clientPort())) {
      final LoginResponse cont = scramStart(c, "n,,n=alice,r=fuzz");
      assertEquals(LoginStatus.LOGIN_STATUS_CONTINUE, cont.getStatus());
      c.invoke(2, "Deposit", 1000L, 1L);
      assertTrue(c.closedByServer(), "an invocation before the login ends closes the connection");
    }
    assertTrue(server.isAlive());
    assertEquals(before, balance());
    try (PartitaClient alice = login("alice", SecurityFixture.ALICE_PASSWORD)) {
      assertNotEquals(null, alice.call("@Ping"));
    }
  }

  @Test
  void shouldCloseAConnectionThatNeverLogsIn() throws Exception {
    try (RawConnection idle = new RawConnection(server.clientPort())) {
      final long start = System.nanoTime();
      idle.setReadTimeoutMillis(45_000);
      assertTrue(idle.closedByServer(), "a connection that never logs in must be closed");
      final long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      assertTrue(seconds >= 25 && seconds <= 40, "closed after " + seconds + " s");
    }
    assertTrue(server.output().contains("reason=no login within"), server.output());
  }

  @Test
  void shouldLogInThroughJdbcAndMapDenialsToSqlStates() throws Exception {
    final String url = "jdbc:partita://" + server.address() + "?reconnect=false";
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "alice", SecurityFixture.ALICE_PASSWORD);
        java.sql.Statement s = c.createStatement()) {
      try (java.sql.ResultSet r = s.executeQuery("SELECT COUNT(*) FROM accounts")) {
        assertTrue(r.next());
      }
      final java.sql.SQLException denied = assertThrows(java.sql.SQLException.class,
          () -> s.execute("CREATE TABLE intruder (id INTEGER)"));
      assertEquals("42501", denied.getSQLState(), denied.getMessage());
    }
    final java.sql.SQLException refused = assertThrows(java.sql.SQLException.class,
        () -> java.sql.DriverManager.getConnection(url, "alice", "wrong").close());
    assertEquals("28000", refused.getSQLState(), refused.getMessage());
    final java.sql.SQLException anonymous = assertThrows(java.sql.SQLException.class,
        () -> java.sql.DriverManager.getConnection(url).close());
    assertTrue(anonymous.getMessage().contains("requires a user and password"), anonymous.getMessage());
  }
}
