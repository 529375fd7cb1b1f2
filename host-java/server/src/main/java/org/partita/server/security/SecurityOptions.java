package org.partita.server.security;

import java.nio.file.Path;

/**
 * How a server protects itself (docs/security.md): the users file that
 * turns authentication and authorization on, and TLS for the client and
 * HTTP ports. Both are off by default. Immutable.
 *
 * @param usersFile the users file ({@code partita start --users}), or null: no authentication, every caller may
 *     do everything (loopback or a trusted network only)
 * @param tls the TLS identity of the client and HTTP ports, or null for plain TCP
 */
public record SecurityOptions(Path usersFile, TlsFiles tls) {
  /** No authentication, no TLS: the server as without security. */
  public static final SecurityOptions OFF = new SecurityOptions(null, null);

  /** Whether callers must log in and are checked against their roles. */
  public boolean authentication() {
    return usersFile != null;
  }
}
