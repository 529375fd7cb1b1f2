package org.partita.client.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The SCRAM-SHA-256 arithmetic of RFC 5802 / RFC 7677 (docs/wire-protocol.md,
 * "Authentication"), shared by the client's login ({@link ScramClient}) and
 * the server's: the salted password (PBKDF2-HMAC-SHA-256), the client and
 * server keys, proofs, signatures, nonces, and the messages' {@code a=value}
 * attributes. Stateless; thread-safe.
 */
public final class Scram {
  /** The mechanism's name as the wire carries it. */
  public static final String MECHANISM = "SCRAM-SHA-256";
  /** The GS2 header of a client without channel binding or authorization identity. */
  public static final String GS2_HEADER = "n,,";
  /** The least iteration count RFC 7677 allows. */
  public static final int MIN_ITERATIONS = 4096;
  private static final int NONCE_BYTES = 24;
  private static final SecureRandom RANDOM = new SecureRandom();

  private Scram() {}

  /** PBKDF2-HMAC-SHA-256 of the password's UTF-8 bytes, one 32-byte block: RFC 5802's Hi(). */
  public static byte[] saltedPassword(String password, byte[] salt, int iterations) {
    final byte[] key = password.getBytes(StandardCharsets.UTF_8);
    final byte[] first = new byte[salt.length + 4];
    System.arraycopy(salt, 0, first, 0, salt.length);
    first[salt.length + 3] = 1;
    byte[] u = hmac(key, first);
    final byte[] result = u.clone();
    for (int i = 1; i < iterations; i++) {
      u = hmac(key, u);
      for (int j = 0; j < result.length; j++) {
        result[j] ^= u[j];
      }
    }
    return result;
  }

  public static byte[] clientKey(byte[] saltedPassword) {
    return hmac(saltedPassword, "Client Key".getBytes(StandardCharsets.US_ASCII));
  }

  public static byte[] serverKey(byte[] saltedPassword) {
    return hmac(saltedPassword, "Server Key".getBytes(StandardCharsets.US_ASCII));
  }

  public static byte[] storedKey(byte[] clientKey) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(clientKey);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  /** HMAC-SHA-256 of {@code data} under {@code key}. */
  public static byte[] hmac(byte[] key, byte[] data) {
    try {
      final Mac mac = Mac.getInstance("HmacSHA256");
      // HMAC pads a short key with zero bytes, so an empty key (which
      // SecretKeySpec refuses) is the same key as one zero byte.
      mac.init(new SecretKeySpec(key.length == 0 ? new byte[1] : key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no HmacSHA256", e);
    }
  }

  /** ClientProof = ClientKey XOR HMAC(StoredKey, AuthMessage). */
  public static byte[] clientProof(byte[] clientKey, String authMessage) {
    return xor(clientKey, hmac(storedKey(clientKey), utf8(authMessage)));
  }

  /** ServerSignature = HMAC(ServerKey, AuthMessage). */
  public static byte[] serverSignature(byte[] serverKey, String authMessage) {
    return hmac(serverKey, utf8(authMessage));
  }

  /**
   * Whether {@code proof} proves knowledge of the ClientKey whose hash is
   * {@code storedKey}: recovers ClientKey from the proof and compares its
   * hash in constant time.
   */
  public static boolean verifyProof(byte[] storedKey, String authMessage, byte[] proof) {
    final byte[] signature = hmac(storedKey, utf8(authMessage));
    if (proof.length != signature.length) {
      return false;
    }
    return MessageDigest.isEqual(storedKey(xor(proof, signature)), storedKey);
  }

  public static byte[] xor(byte[] a, byte[] b) {
    final byte[] out = new byte[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = (byte) (a[i] ^ b[i]);
    }
    return out;
  }

  /** A fresh random nonce: base64 (no ',') of 24 random bytes. */
  public static String nonce() {
    final byte[] bytes = new byte[NONCE_BYTES];
    RANDOM.nextBytes(bytes);
    return Base64.getEncoder().encodeToString(bytes);
  }

  /** Fresh random salt bytes. */
  public static byte[] salt(int bytes) {
    final byte[] salt = new byte[bytes];
    RANDOM.nextBytes(salt);
    return salt;
  }

  /** A user name as a SCRAM message writes it: '=' as "=3D", ',' as "=2C". */
  public static String escapeName(String name) {
    return name.replace("=", "=3D").replace(",", "=2C");
  }

  /**
   * The name a SCRAM message carries, unescaped.
   *
   * @throws IllegalArgumentException when '=' is followed by neither "3D" nor "2C"
   */
  public static String unescapeName(String escaped) {
    final StringBuilder out = new StringBuilder(escaped.length());
    for (int i = 0; i < escaped.length(); i++) {
      final char c = escaped.charAt(i);
      if (c != '=') {
        out.append(c);
      } else if (escaped.startsWith("3D", i + 1)) {
        out.append('=');
        i += 2;
      } else if (escaped.startsWith("2C", i + 1)) {
        out.append(',');
        i += 2;
      } else {
        throw new IllegalArgumentException("bad escape in the user name at character " + (i + 1));
      }
    }
    return out.toString();
  }

  /**
   * The {@code a=value} attributes of a SCRAM message, by their one-letter
   * name, in any order.
   *
   * @throws IllegalArgumentException when a part is not {@code letter=value} or a letter repeats
   */
  public static Map<Character, String> attributes(String message) {
    final Map<Character, String> out = new HashMap<>();
    for (String part : message.split(",", -1)) {
      if (part.length() < 2 || part.charAt(1) != '=' || !Character.isLetter(part.charAt(0))) {
        throw new IllegalArgumentException("malformed SCRAM attribute '" + abbreviate(part) + "'");
      }
      if (out.put(part.charAt(0), part.substring(2)) != null) {
        throw new IllegalArgumentException("SCRAM attribute '" + part.charAt(0) + "' given twice");
      }
    }
    return out;
  }

  /** The attribute {@code name} of {@code attributes}; throws IllegalArgumentException naming it when absent. */
  public static String require(Map<Character, String> attributes, char name, String what) {
    final String value = attributes.get(name);
    if (value == null) {
      throw new IllegalArgumentException("SCRAM message without " + what + " ('" + name + "=')");
    }
    return value;
  }

  /** Base64 decoding that reports bad input as IllegalArgumentException naming {@code what}. */
  public static byte[] base64(String text, String what) {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + " is not valid base64");
    }
  }

  public static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  public static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String abbreviate(String text) {
    return text.length() <= 20 ? text : text.substring(0, 20) + "...";
  }
}
