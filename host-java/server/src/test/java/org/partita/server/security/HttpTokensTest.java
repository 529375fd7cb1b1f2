package org.partita.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The HTTP API's bearer tokens on a fake clock: a token stands for its user
 * until it expires, is revoked, or the user is changed or dropped; unknown
 * and malformed tokens are refused; the oldest tokens make room when too
 * many are outstanding.
 */
class HttpTokensTest {
  private static final Duration LIFETIME = Duration.ofMinutes(10);

  private final AtomicLong now = new AtomicLong(1_000);
  private final UserEntry alice = new UserEntry("alice", ScramCredential.derive("wonderland", 4096), List.of("user"));
  private final UserEntry bob = new UserEntry("bob", ScramCredential.derive("builder", 4096), List.of("user"));
  private final UserDirectory users = UserDirectory.inMemory(List.of(alice, bob));
  private final HttpTokens tokens = new HttpTokens(users, now::get, LIFETIME, 3);

  @Test
  void shouldStandForItsUserUntilItExpires() throws Exception {
    final String token = tokens.issue(alice);
    assertTrue(token.startsWith(HttpTokens.PREFIX) && token.length() > 40, token);
    assertNotEquals(token, tokens.issue(alice), "every token is new");
    assertEquals("alice", tokens.verify(token).name());

    now.addAndGet(LIFETIME.toNanos() - 1);
    assertEquals("alice", tokens.verify(token).name());
    now.addAndGet(1);
    final AuthenticationException expired = assertThrows(AuthenticationException.class, () -> tokens.verify(token));
    assertTrue(expired.getMessage().contains("expired"), expired.getMessage());
    assertThrows(AuthenticationException.class, () -> tokens.verify(token), "and it stays refused");
  }

  @Test
  void shouldRefuseARevokedUnknownOrMalformedToken() throws Exception {
    final String token = tokens.issue(bob);
    assertTrue(tokens.revoke(token));
    assertFalse(tokens.revoke(token), "revoked once");
    assertThrows(AuthenticationException.class, () -> tokens.verify(token));
    for (String bad : List.of("", "ptk_", "ptk_AAAA", token + "x", token.substring(0, token.length() - 1), "Basic x",
        "\u0000\uffff")) {
      assertThrows(AuthenticationException.class, () -> tokens.verify(bad), bad);
    }
  }

  @Test
  void shouldDieWithItsUsersCredential() throws Exception {
    final String aliceToken = tokens.issue(alice);
    final String bobToken = tokens.issue(bob);
    users.put(new UserEntry("alice", ScramCredential.derive("new-password", 4096), List.of("user")));
    final AuthenticationException changed = assertThrows(AuthenticationException.class,
        () -> tokens.verify(aliceToken));
    assertTrue(changed.getMessage().contains("changed"), changed.getMessage());
    users.remove("bob");
    final AuthenticationException dropped = assertThrows(AuthenticationException.class,
        () -> tokens.verify(bobToken));
    assertTrue(dropped.getMessage().contains("dropped"), dropped.getMessage());
  }

  @Test
  void shouldMakeRoomByForgettingTheTokensClosestToExpiry() throws Exception {
    final String first = tokens.issue(alice);
    now.addAndGet(1);
    final String second = tokens.issue(alice);
    now.addAndGet(1);
    final String third = tokens.issue(bob);
    now.addAndGet(1);
    final String fourth = tokens.issue(bob);
    assertEquals(3, tokens.outstanding());
    assertThrows(AuthenticationException.class, () -> tokens.verify(first));
    assertEquals("alice", tokens.verify(second).name());
    assertEquals("bob", tokens.verify(third).name());
    assertEquals("bob", tokens.verify(fourth).name());
  }
}
