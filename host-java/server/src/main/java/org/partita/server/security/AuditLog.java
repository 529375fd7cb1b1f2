package org.partita.server.security;

import java.util.logging.Logger;

/**
 * The audit trail (docs/security.md, "Audit"): one line on the logger
 * {@code partita.audit} for every login (accepted or refused, with the
 * peer's address), every permission denial, every DDL statement, every
 * administrative call and every host refused admission to a secured cluster. Stateless; thread-safe.
 */
public final class AuditLog {
  /** The logger's name; configure it (java.util.logging) to send audit lines elsewhere. */
  public static final String LOGGER = "partita.audit";
  private static final Logger LOG = Logger.getLogger(LOGGER);

  private AuditLog() {}

  public static void loginAccepted(String user, String peer, String how) {
    LOG.info("audit: login accepted: user=" + user + " peer=" + peer + " via=" + how);
  }

  /** {@code claimedUser} is what the client claimed (never the password); {@code reason} is for the log only. */
  public static void loginRefused(String claimedUser, String peer, String how, String reason) {
    LOG.warning("audit: login refused: user=" + claimedUser + " peer=" + peer + " via=" + how + " reason=" + reason);
  }

  public static void denied(Principal who, String call, Permission needed) {
    LOG.warning("audit: permission denied: user=" + who.user() + " peer=" + who.peer() + " call=" + call
        + " needs=" + (needed == null ? "EXECUTE" : needed));
  }

  public static void ddl(Principal who, String sql) {
    LOG.info("audit: ddl: user=" + who.user() + " peer=" + who.peer() + " sql=" + oneLine(sql));
  }

  public static void admin(Principal who, String call) {
    LOG.info("audit: admin call: user=" + who.user() + " peer=" + who.peer() + " call=" + call);
  }

  /** An HTTP bearer token issued to or revoked by {@code user} ({@code what}: "issued" or "revoked"). */
  public static void token(String user, String peer, String what) {
    LOG.info("audit: http token " + what + ": user=" + user + " peer=" + peer);
  }

  /** A connection to or from the internal port of a secured cluster that failed admission (not a member). */
  public static void hostRefused(String peer, String reason) {
    LOG.warning("audit: host refused: peer=" + peer + " reason=" + reason);
  }

  private static String oneLine(String sql) {
    final String flat = sql.strip().replaceAll("\\s+", " ");
    return flat.length() <= 500 ? flat : flat.substring(0, 500) + "...";
  }
}
