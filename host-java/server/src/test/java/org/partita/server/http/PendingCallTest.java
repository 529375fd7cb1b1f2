package org.partita.server.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.partita.server.database.Database;
import org.partita.server.txn.ClientSessions;

class PendingCallTest {
  /**
   * Every HTTP call carries HTTP's client id with sequence 0: were that id
   * taken for a client session, the second HTTP write to a partition would
   * be answered with the first one's recorded answer (HttpApiTest saw a
   * vote answered with another vote's result and a query with a vote's).
   */
  @Test
  void shouldCallOverHttpOutsideAnyClientSession() {
    assertFalse(ClientSessions.isSession(PendingCall.HTTP_CLIENT));
    assertNotEquals(Database.IN_PROCESS_CLIENT, PendingCall.HTTP_CLIENT);
  }
}
