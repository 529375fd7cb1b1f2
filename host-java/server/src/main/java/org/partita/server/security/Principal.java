package org.partita.server.security;

import java.util.List;

/**
 * Who makes a call: the authenticated user and the names of its roles, as
 * they were when the user logged in (or, over HTTP, when the request
 * arrived). Role definitions are looked up at each call, so a GRANT or
 * REVOKE applies at once. Immutable.
 *
 * @param user the user's name
 * @param roles the user's role names, lower-case
 * @param peer the client's address ("127.0.0.1:50412"), for the audit log
 */
public record Principal(String user, List<String> roles, String peer) {
  /**
   * The caller when security is off, and in-process callers: not checked
   * (everything behaves as without security).
   */
  public static final Principal UNCHECKED = new Principal("", List.of(), "");

  public Principal {
    roles = List.copyOf(roles);
  }

  /** Whether calls of this principal skip authorization (security off, in-process). */
  public boolean unchecked() {
    return this == UNCHECKED;
  }
}
