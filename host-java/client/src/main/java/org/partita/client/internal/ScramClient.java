package org.partita.client.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * The client's side of one SCRAM-SHA-256 login (docs/wire-protocol.md,
 * "Authentication"): {@link #clientFirst}, then {@link #clientFinal} for the
 * server-first message, then {@link #verifyServerFinal}. One object per
 * login; not thread-safe (a connection's event loop drives it).
 */
public final class ScramClient {
  private final String user;
  private final String password;
  private final String clientNonce;
  private String clientFirstBare;
  private byte[] expectedSignature;

  public ScramClient(String user, String password) {
    this(user, password, Scram.nonce());
  }

  /** With a chosen nonce, for tests against RFC 7677's example. */
  ScramClient(String user, String password, String clientNonce) {
    this.user = user;
    this.password = password;
    this.clientNonce = clientNonce;
  }

  /** The client-first-message: "n,,n=user,r=nonce". */
  public String clientFirst() {
    clientFirstBare = "n=" + Scram.escapeName(user) + ",r=" + clientNonce;
    return Scram.GS2_HEADER + clientFirstBare;
  }

  /**
   * The client-final-message answering {@code serverFirst}.
   *
   * @throws IllegalArgumentException when the server-first message is malformed, its nonce does not
   *     extend ours, or its iteration count is below 4,096 (a server trying to weaken the hash)
   */
  public String clientFinal(String serverFirst) {
    final Map<Character, String> a = Scram.attributes(serverFirst);
    final String nonce = Scram.require(a, 'r', "a nonce");
    if (!nonce.startsWith(clientNonce) || nonce.length() == clientNonce.length()) {
      throw new IllegalArgumentException("the server's nonce does not extend the client's");
    }
    final byte[] salt = Scram.base64(Scram.require(a, 's', "a salt"), "the salt");
    final int iterations;
    try {
      iterations = Integer.parseInt(Scram.require(a, 'i', "an iteration count"));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("the iteration count is not a number");
    }
    if (iterations < Scram.MIN_ITERATIONS) {
      throw new IllegalArgumentException("the server asks for " + iterations + " iterations, fewer than "
          + Scram.MIN_ITERATIONS);
    }
    final String withoutProof = "c=" + Scram.base64(Scram.GS2_HEADER.getBytes(StandardCharsets.US_ASCII))
        + ",r=" + nonce;
    final String authMessage = clientFirstBare + "," + serverFirst + "," + withoutProof;
    final byte[] salted = Scram.saltedPassword(password, salt, iterations);
    expectedSignature = Scram.serverSignature(Scram.serverKey(salted), authMessage);
    return withoutProof + ",p=" + Scram.base64(Scram.clientProof(Scram.clientKey(salted), authMessage));
  }

  /** True iff {@code serverFinal} carries the signature only a server holding the user's ServerKey can make. */
  public boolean verifyServerFinal(String serverFinal) {
    if (expectedSignature == null || !serverFinal.startsWith("v=")) {
      return false;
    }
    final byte[] signature;
    try {
      signature = Scram.base64(serverFinal.substring(2), "the server signature");
    } catch (IllegalArgumentException e) {
      return false;
    }
    return MessageDigest.isEqual(signature, expectedSignature);
  }
}
