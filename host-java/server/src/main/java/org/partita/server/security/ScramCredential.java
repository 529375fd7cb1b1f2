package org.partita.server.security;

import java.security.MessageDigest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.partita.client.internal.Scram;

/**
 * What the server keeps of a password: the SCRAM-SHA-256 salt, iteration
 * count, StoredKey and ServerKey (never the password, nor anything that
 * logs in without it), written in RFC 5803's form
 * {@code SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey} (base64). Immutable.
 */
public record ScramCredential(byte[] salt, int iterations, byte[] storedKey, byte[] serverKey) {
  /** The iteration count new credentials get. */
  public static final int DEFAULT_ITERATIONS = 15_000;
  private static final int SALT_BYTES = 16;
  private static final int KEY_BYTES = 32;
  private static final Pattern FORM = Pattern.compile("SCRAM-SHA-256\\$(\\d{1,9}):([A-Za-z0-9+/=]+)\\$([A-Za-z0-9+/=]+):([A-Za-z0-9+/=]+)");

  public ScramCredential {
    salt = salt.clone();
    storedKey = storedKey.clone();
    serverKey = serverKey.clone();
  }

  /** A new credential for {@code password}, with a fresh random salt. */
  public static ScramCredential derive(String password, int iterations) {
    return derive(password, Scram.salt(SALT_BYTES), iterations);
  }

  /** The credential of {@code password} with {@code salt}. */
  public static ScramCredential derive(String password, byte[] salt, int iterations) {
    if (iterations < Scram.MIN_ITERATIONS) {
      throw new IllegalArgumentException("SCRAM-SHA-256 needs at least " + Scram.MIN_ITERATIONS + " iterations, got "
          + iterations);
    }
    final byte[] salted = Scram.saltedPassword(password, salt, iterations);
    return new ScramCredential(salt, iterations, Scram.storedKey(Scram.clientKey(salted)), Scram.serverKey(salted));
  }

  /**
   * Parses RFC 5803's form.
   *
   * @throws IllegalArgumentException saying what is wrong (never echoing the keys)
   */
  public static ScramCredential parse(String text) {
    final Matcher m = FORM.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("a credential must read SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey"
          + " (base64; 'partita passwd' writes one)");
    }
    final int iterations = Integer.parseInt(m.group(1));
    if (iterations < Scram.MIN_ITERATIONS) {
      throw new IllegalArgumentException("a credential needs at least " + Scram.MIN_ITERATIONS + " iterations, has "
          + iterations);
    }
    final byte[] stored = Scram.base64(m.group(3), "the StoredKey");
    final byte[] server = Scram.base64(m.group(4), "the ServerKey");
    if (stored.length != KEY_BYTES || server.length != KEY_BYTES) {
      throw new IllegalArgumentException("a credential's keys must be 32 bytes each");
    }
    return new ScramCredential(Scram.base64(m.group(2), "the salt"), iterations, stored, server);
  }

  /** RFC 5803's form. */
  public String format() {
    return "SCRAM-SHA-256$" + iterations + ":" + Scram.base64(salt) + "$" + Scram.base64(storedKey) + ":"
        + Scram.base64(serverKey);
  }

  /** Whether {@code password} is this credential's password (PBKDF2 at the stored count: slow on purpose). */
  public boolean matches(String password) {
    final byte[] salted = Scram.saltedPassword(password, salt, iterations);
    return MessageDigest.isEqual(Scram.storedKey(Scram.clientKey(salted)), storedKey);
  }

  @Override
  public String toString() {
    return "ScramCredential{iterations=" + iterations + "}";
  }
}
