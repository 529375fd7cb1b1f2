package org.partita.server.security;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.partita.client.internal.Scram;

/**
 * The server's side of one SCRAM-SHA-256 login (docs/wire-protocol.md,
 * "Authentication"): {@link #serverFirst} answers the client-first message,
 * {@link #finish} checks the client-final message and gives the
 * server-final one. Each exchange draws a fresh nonce, so a client-final
 * recorded from another login never verifies. An unknown user gets a
 * server-first like a known one's (a salt derived from the name and the
 * server's secret, the default iteration count) and fails at the proof, as
 * a wrong password does. One object per login attempt; not thread-safe
 * (the connection's event loop drives it).
 */
public final class ScramServerExchange {
  private final UserDirectory users;
  private final byte[] secret;
  private String clientFirstBare;
  private String serverFirst;
  private String nonce;
  private UserEntry user;
  private ScramCredential credential;
  private String claimedName;

  ScramServerExchange(UserDirectory users, byte[] secret) {
    this.users = users;
    this.secret = secret;
  }

  /** The user name the client claimed (for logs), or "" before {@link #serverFirst}. */
  public String claimedName() {
    return claimedName == null ? "" : claimedName;
  }

  /**
   * The server-first message answering {@code clientFirst}.
   *
   * @throws AuthenticationException when the message is malformed or asks for channel binding
   */
  public String serverFirst(byte[] clientFirst) throws AuthenticationException {
    if (serverFirst != null) {
      throw new AuthenticationException("a second client-first message");
    }
    final String text = new String(clientFirst, StandardCharsets.UTF_8);
    if (!text.startsWith("n,,") && !text.startsWith("y,,")) {
      throw new AuthenticationException("client-first without the GS2 header 'n,,' (channel binding and "
          + "authorization identities are not supported)");
    }
    clientFirstBare = text.substring(3);
    try {
      final Map<Character, String> a = Scram.attributes(clientFirstBare);
      if (a.containsKey('m')) {
        throw new IllegalArgumentException("mandatory extension 'm' is not supported");
      }
      claimedName = Scram.unescapeName(Scram.require(a, 'n', "a user name"));
      final String clientNonce = Scram.require(a, 'r', "a nonce");
      if (clientNonce.isEmpty() || !printable(clientNonce)) {
        throw new IllegalArgumentException("the client nonce is empty or not printable ASCII");
      }
      nonce = clientNonce + Scram.nonce();
    } catch (IllegalArgumentException e) {
      throw new AuthenticationException("malformed client-first message: " + e.getMessage());
    }
    user = users.find(claimedName).orElse(null);
    credential = user != null ? user.credential() : standIn(claimedName);
    serverFirst = "r=" + nonce + ",s=" + Scram.base64(credential.salt()) + ",i=" + credential.iterations();
    return serverFirst;
  }

  /**
   * Checks the client-final message: the nonce must be this exchange's and
   * the proof the user's. Returns the authenticated user and the
   * server-final message.
   *
   * @throws AuthenticationException when anything does not match (the reason is for the log only)
   */
  public Outcome finish(byte[] clientFinal) throws AuthenticationException {
    if (serverFirst == null) {
      throw new AuthenticationException("a client-final message before the client-first");
    }
    final String text = new String(clientFinal, StandardCharsets.UTF_8);
    final int proofAt = text.lastIndexOf(",p=");
    if (proofAt < 0) {
      throw new AuthenticationException("client-final message without a proof");
    }
    final String withoutProof = text.substring(0, proofAt);
    final byte[] proof;
    try {
      final Map<Character, String> a = Scram.attributes(withoutProof);
      if (!Scram.base64(Scram.utf8(Scram.GS2_HEADER)).equals(a.get('c'))) {
        throw new IllegalArgumentException("the channel binding is not 'biws'");
      }
      if (!nonce.equals(a.get('r'))) {
        throw new IllegalArgumentException("the nonce is not this login's (a replayed or forged message)");
      }
      proof = Scram.base64(text.substring(proofAt + 3), "the proof");
    } catch (IllegalArgumentException e) {
      throw new AuthenticationException("bad client-final message for user '" + claimedName + "': " + e.getMessage());
    }
    final String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    if (user == null) {
      throw new AuthenticationException("unknown user '" + claimedName + "'");
    }
    if (!Scram.verifyProof(credential.storedKey(), authMessage, proof)) {
      throw new AuthenticationException("wrong proof (password) for user '" + claimedName + "'");
    }
    return new Outcome(user, "v=" + Scram.base64(Scram.serverSignature(credential.serverKey(), authMessage)));
  }

  /** A successful exchange: who logged in, and the server-final message to send. */
  public record Outcome(UserEntry user, String serverFinal) {}

  private ScramCredential standIn(String name) {
    final byte[] salt = Arrays.copyOf(Scram.hmac(secret, Scram.utf8("salt:" + name)), 16);
    final byte[] key = Scram.hmac(secret, Scram.utf8("key:" + name));
    return new ScramCredential(salt, ScramCredential.DEFAULT_ITERATIONS, key, key);
  }

  private static boolean printable(String s) {
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      if (c < 0x21 || c > 0x7e || c == ',') {
        return false;
      }
    }
    return true;
  }
}
