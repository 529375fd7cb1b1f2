package org.partita.server.txn;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The client id a call carries when its connection logged in with a client
 * session (proto/client.proto {@code LoginRequest.client_session};
 * docs/wire-protocol.md, "Client sessions"): a number that is the same on
 * every connection of that session, to every host, so that a call sent
 * again after its outcome was unknown carries the same (client id, client
 * sequence) pair as the first time and the partition's copies can tell it
 * ran (database {@code DedupTable}).
 *
 * <p>The id is the first 8 bytes of SHA-256 over the authenticated user's
 * name and the session the client chose, with the top bit set. So:
 * <ul>
 * <li>a user can only reach records of its own sessions: claiming another
 *     user's session number gives another id, and finding a second
 *     (user, session) with a given id is a 2^63 search;</li>
 * <li>two sessions of one user collide only if the client drew the same
 *     random 64-bit number twice (about n²/2^65 for n sessions);</li>
 * <li>connection ids (small counters, one host's own numbering, used when
 *     a client gives no session) never have the top bit set, so they are
 *     never taken for a session and never de-duplicated across hosts.</li>
 * </ul>
 * Without security every client is the same unnamed user: sessions then
 * separate well-behaved clients only, as everything else does on such a
 * server. Stateless; any thread.
 */
public final class ClientSessions {
  /** The bit every session id has and no connection id has. */
  public static final long SESSION_BIT = 1L << 63;

  private ClientSessions() {
  }

  /**
   * The client id of session {@code session} of {@code user} ("" without
   * security). REQUIRES: {@code session != 0}.
   */
  public static long id(String user, long session) {
    if (session == 0) {
      throw new IllegalArgumentException("session 0 means no session");
    }
    final MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    final byte[] name = user.getBytes(StandardCharsets.UTF_8);
    digest.update(ByteBuffer.allocate(4).putInt(name.length).array());
    digest.update(name);
    digest.update(ByteBuffer.allocate(8).putLong(session).array());
    return ByteBuffer.wrap(digest.digest()).getLong() | SESSION_BIT;
  }

  /** True iff {@code clientId} names a client session (not a connection or an in-process caller). */
  public static boolean isSession(long clientId) {
    return clientId < 0;
  }
}
