package org.partita.server.security;

import java.security.MessageDigest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.partita.client.internal.Scram;

/**
 * Checks who a client is: SCRAM-SHA-256 exchanges for the binary protocol
 * ({@link #newExchange}), passwords for HTTP Basic ({@link #verifyPassword})
 * and the HTTP API's bearer tokens ({@link #tokens}).
 * Holds the users and a random secret of this process (stand-in salts for
 * unknown users, the HTTP password cache). Thread-safe.
 */
public final class Authenticator {
  /** How long a failed login waits before it is answered. */
  public static final long FAILED_LOGIN_DELAY_MILLIS = 1000;
  private static final int CACHE_LIMIT = 1024;

  private final UserDirectory users;
  private final byte[] secret = Scram.salt(32);
  // Checked against when the user is unknown, so that an unknown user costs the same PBKDF2 as a known one.
  private final ScramCredential standIn = ScramCredential.derive(Scram.nonce(), ScramCredential.DEFAULT_ITERATIONS);
  // user -> (the credential a password was checked against, HMAC(secret, password)); PBKDF2 is slow on purpose,
  // so an HTTP client sending Basic credentials with every request pays it once per password.
  private final Map<String, Verified> verified = new ConcurrentHashMap<>();
  private final HttpTokens tokens;

  private record Verified(ScramCredential credential, byte[] passwordMac) {}

  public Authenticator(UserDirectory users) {
    this.users = users;
    this.tokens = new HttpTokens(users);
  }

  /** The HTTP API's bearer tokens of these users. */
  public HttpTokens tokens() {
    return tokens;
  }

  public UserDirectory users() {
    return users;
  }

  /** A new SCRAM exchange for one login. */
  public ScramServerExchange newExchange() {
    return new ScramServerExchange(users, secret);
  }

  /**
   * The user {@code name} iff {@code password} is its password.
   *
   * @throws AuthenticationException for an unknown user or a wrong password (the reason is for the log only)
   */
  public UserEntry verifyPassword(String name, String password) throws AuthenticationException {
    final UserEntry user = users.find(name).orElse(null);
    final byte[] mac = Scram.hmac(secret, Scram.utf8(password));
    if (user != null) {
      final Verified known = verified.get(name);
      if (known != null && known.credential == user.credential() && MessageDigest.isEqual(known.passwordMac, mac)) {
        return user;
      }
    }
    final ScramCredential credential = user != null ? user.credential() : standIn;
    final boolean matches = credential.matches(password);
    if (user == null) {
      throw new AuthenticationException("unknown user '" + name + "'");
    }
    if (!matches) {
      throw new AuthenticationException("wrong password for user '" + name + "'");
    }
    if (verified.size() >= CACHE_LIMIT) {
      verified.clear();
    }
    verified.put(name, new Verified(user.credential(), mac));
    return user;
  }
}
