package org.partita.server.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

final class ClientSessionsTest {
  @Test
  void aSessionIdIsStableAndScopedByItsUser() {
    final long id = ClientSessions.id("alice", 42);
    assertEquals(id, ClientSessions.id("alice", 42), "the same on every connection and host");
    assertNotEquals(id, ClientSessions.id("bob", 42), "another user claiming the number gets another id");
    assertNotEquals(id, ClientSessions.id("alice", 43));
    assertNotEquals(ClientSessions.id("", 42), ClientSessions.id("alice", 42));
    // The user's name and the number are framed apart: "ab"+x is not "a"+"b..."
    assertNotEquals(ClientSessions.id("ab", 1), ClientSessions.id("a", 1));
  }

  @Test
  void sessionIdsAndConnectionIdsNeverMeet() {
    for (long n = 1; n < 1000; n++) {
      assertTrue(ClientSessions.isSession(ClientSessions.id("u", n)));
      assertFalse(ClientSessions.isSession(n), "connection id " + n);
    }
    assertFalse(ClientSessions.isSession(0), "in-process callers");
    assertTrue(ClientSessions.isSession(ClientSessions.id("u", -1)), "any 64-bit number is a session");
  }

  @Test
  void sessionZeroMeansNoSession() {
    assertThrows(IllegalArgumentException.class, () -> ClientSessions.id("u", 0));
  }
}
