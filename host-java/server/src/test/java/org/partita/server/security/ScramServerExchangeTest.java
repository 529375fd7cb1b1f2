package org.partita.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.partita.client.internal.Scram;
import org.partita.client.internal.ScramClient;

/** The server's SCRAM-SHA-256 steps against the client's, and every way a login must fail. */
final class ScramServerExchangeTest {
  private static final int ITERATIONS = 4096;
  private final UserDirectory users = UserDirectory.inMemory(List.of(
      new UserEntry("alice", ScramCredential.derive("wonderland", ITERATIONS), List.of("user"))));
  private final Authenticator authenticator = new Authenticator(users);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void shouldLogInWithTheRightPasswordAndProveItselfToTheClient() throws Exception {
    final ScramClient client = new ScramClient("alice", "wonderland");
    final ScramServerExchange server = authenticator.newExchange();
    final String serverFirst = server.serverFirst(bytes(client.clientFirst()));
    final ScramServerExchange.Outcome outcome = server.finish(bytes(client.clientFinal(serverFirst)));
    assertEquals("alice", outcome.user().name());
    assertTrue(client.verifyServerFinal(outcome.serverFinal()));
  }

  @Test
  void shouldRefuseAWrongPassword() throws Exception {
    final ScramClient client = new ScramClient("alice", "looking-glass");
    final ScramServerExchange server = authenticator.newExchange();
    final String serverFirst = server.serverFirst(bytes(client.clientFirst()));
    final AuthenticationException e = assertThrows(AuthenticationException.class,
        () -> server.finish(bytes(client.clientFinal(serverFirst))));
    assertTrue(e.getMessage().contains("wrong proof"), e.getMessage());
  }

  @Test
  void shouldAnswerAnUnknownUserLikeAKnownOneUntilTheProof() throws Exception {
    final ScramServerExchange first = authenticator.newExchange();
    final String serverFirst = first.serverFirst(bytes(new ScramClient("mallory", "x").clientFirst()));
    final String again = authenticator.newExchange().serverFirst(bytes(new ScramClient("mallory", "y").clientFirst()));
    assertEquals(Scram.attributes(serverFirst).get('s'), Scram.attributes(again).get('s'), "a stable salt");
    assertEquals(String.valueOf(ScramCredential.DEFAULT_ITERATIONS), Scram.attributes(serverFirst).get('i'));
    final ScramClient client = new ScramClient("mallory", "x");
    final ScramServerExchange server = authenticator.newExchange();
    final String sf = server.serverFirst(bytes(client.clientFirst()));
    assertThrows(AuthenticationException.class, () -> server.finish(bytes(client.clientFinal(sf))));
  }

  @Test
  void shouldRefuseAClientFinalReplayedFromAnotherLogin() throws Exception {
    final ScramClient client = new ScramClient("alice", "wonderland");
    final String clientFirst = client.clientFirst();
    final ScramServerExchange recorded = authenticator.newExchange();
    final String clientFinal = client.clientFinal(recorded.serverFirst(bytes(clientFirst)));
    recorded.finish(bytes(clientFinal));
    final ScramServerExchange replay = authenticator.newExchange();
    final String newServerFirst = replay.serverFirst(bytes(clientFirst));
    assertNotEquals(recorded.hashCode(), replay.hashCode());
    final AuthenticationException e = assertThrows(AuthenticationException.class,
        () -> replay.finish(bytes(clientFinal)));
    assertTrue(e.getMessage().contains("nonce"), e.getMessage() + " after " + newServerFirst);
  }

  @Test
  void shouldRefuseMalformedMessages() throws Exception {
    for (String bad : List.of("", "n=alice,r=abc", "p=tls-unique,,n=alice,r=abc", "n,,n=alice", "n,,r=abc",
        "n,,n=al=5Bice,r=abc", "n,,m=ext,n=alice,r=abc", "n,,n=alice,r=a b")) {
      assertThrows(AuthenticationException.class, () -> authenticator.newExchange().serverFirst(bytes(bad)), bad);
    }
    final ScramServerExchange server = authenticator.newExchange();
    assertThrows(AuthenticationException.class, () -> server.finish(bytes("c=biws,r=x,p=AAAA")));
    server.serverFirst(bytes(new ScramClient("alice", "wonderland").clientFirst()));
    for (String bad : List.of("", "c=biws", "c=biws,r=x,p=AAAA", "c=eSws,r=x,p=AAAA", "garbage,p=!!!")) {
      assertThrows(AuthenticationException.class, () -> server.finish(bytes(bad)), bad);
    }
  }

  @Test
  void shouldVerifyHttpPasswordsAndCacheThem() throws Exception {
    assertEquals("alice", authenticator.verifyPassword("alice", "wonderland").name());
    assertEquals("alice", authenticator.verifyPassword("alice", "wonderland").name());
    assertThrows(AuthenticationException.class, () -> authenticator.verifyPassword("alice", "wrong"));
    assertThrows(AuthenticationException.class, () -> authenticator.verifyPassword("nobody", "wonderland"));
  }
}
