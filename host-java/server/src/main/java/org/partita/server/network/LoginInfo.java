package org.partita.server.network;

import org.partita.client.proto.LoginResponse;

/**
 * What the client protocol tells clients about the server: the login
 * answer (topology, hash, routes) and the current catalog and topology versions.
 * Implemented by the server host; thread-safe.
 */
public interface LoginInfo {
  /** A successful login answer for connection {@code connectionId}, with current topology and routes. */
  LoginResponse successfulLogin(long connectionId);

  /** The version of the catalog calls run against now. */
  long catalogVersion();

  /** The version of the partition map (topology) this host knows now. */
  long topologyVersion();
}
