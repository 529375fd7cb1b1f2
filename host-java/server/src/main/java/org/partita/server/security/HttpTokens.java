package org.partita.server.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Bearer tokens of the HTTP API (docs/security.md, "HTTP tokens"): a user
 * who proved its password once (HTTP Basic on {@code POST /api/1.0/token})
 * gets a random 256-bit token that stands for it on later requests until
 * the token expires ({@link #LIFETIME}), is revoked, or the user is dropped
 * or changed ({@code @UpdateUser}, {@code @DropUser}: a token is bound to
 * the credential it was issued under). Only each token's SHA-256 is kept,
 * so the server's memory does not hold a usable token. Tokens live in this
 * process: a restart, or another host of a cluster, does not know them.
 * At most {@link #MAX_TOKENS} are outstanding; past that the ones closest
 * to expiry make room.
 *
 * <p>Thread-safe.
 */
public final class HttpTokens {
  /** How long a token is good for. */
  public static final Duration LIFETIME = Duration.ofHours(1);
  /** The most tokens outstanding at once. */
  public static final int MAX_TOKENS = 10_000;
  /** Every token starts with this, so that a token is recognisable in a log or a leaked file. */
  static final String PREFIX = "ptk_";

  private record Issued(String user, ScramCredential credential, long expiresAtNanos) {}

  private final UserDirectory users;
  private final LongSupplier nanoClock;
  private final long lifetimeNanos;
  private final int capacity;
  private final SecureRandom random = new SecureRandom();
  /** base64(SHA-256(token)) -> what it stands for. */
  private final Map<String, Issued> issued = new ConcurrentHashMap<>();

  public HttpTokens(UserDirectory users) {
    this(users, System::nanoTime, LIFETIME, MAX_TOKENS);
  }

  HttpTokens(UserDirectory users, LongSupplier nanoClock, Duration lifetime, int capacity) {
    this.users = users;
    this.nanoClock = nanoClock;
    this.lifetimeNanos = lifetime.toNanos();
    this.capacity = capacity;
  }

  /** A new token for {@code user}, good for {@link #lifetime()}. */
  public String issue(UserEntry user) {
    if (issued.size() >= capacity) {
      makeRoom();
    }
    final byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    final String token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    issued.put(digest(token), new Issued(user.name(), user.credential(), nanoClock.getAsLong() + lifetimeNanos));
    return token;
  }

  /**
   * The user {@code token} stands for now.
   *
   * @throws AuthenticationException for a token never issued, revoked, expired, or whose user was dropped or
   *     changed since (the reason is for the log only)
   */
  public UserEntry verify(String token) throws AuthenticationException {
    final String key = digest(token);
    final Issued entry = issued.get(key);
    if (entry == null) {
      throw new AuthenticationException("an unknown, revoked or expired token");
    }
    if (nanoClock.getAsLong() - entry.expiresAtNanos >= 0) {
      issued.remove(key, entry);
      throw new AuthenticationException("an expired token of user '" + entry.user + "'");
    }
    final UserEntry user = users.find(entry.user).orElse(null);
    if (user == null || user.credential() != entry.credential) {
      issued.remove(key, entry);
      throw new AuthenticationException("a token of user '" + entry.user + "', who was "
          + (user == null ? "dropped" : "changed") + " since it was issued");
    }
    return user;
  }

  /** Forgets {@code token}; false when it was not outstanding. */
  public boolean revoke(String token) {
    return issued.remove(digest(token)) != null;
  }

  /** How long a new token is good for. */
  public Duration lifetime() {
    return Duration.ofNanos(lifetimeNanos);
  }

  /** The tokens outstanding (expired ones are counted until they are seen or make room). */
  public int outstanding() {
    return issued.size();
  }

  private synchronized void makeRoom() {
    final long now = nanoClock.getAsLong();
    issued.values().removeIf(e -> now - e.expiresAtNanos >= 0);
    while (issued.size() >= capacity) {
      String soonest = null;
      long soonestAt = Long.MAX_VALUE;
      for (Map.Entry<String, Issued> e : issued.entrySet()) {
        if (soonest == null || e.getValue().expiresAtNanos - soonestAt < 0) {
          soonest = e.getKey();
          soonestAt = e.getValue().expiresAtNanos;
        }
      }
      if (soonest == null) {
        return;
      }
      issued.remove(soonest);
    }
  }

  private static String digest(String token) {
    try {
      return Base64.getEncoder().encodeToString(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JVM has no SHA-256", e);
    }
  }
}
