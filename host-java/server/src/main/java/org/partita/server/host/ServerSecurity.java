package org.partita.server.host;

import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.logging.Logger;
import org.partita.server.security.Authenticator;
import org.partita.server.security.SecurityOptions;
import org.partita.server.security.ServerTls;
import org.partita.server.security.UserDirectory;

/**
 * A server's security as opened at start (docs/security.md): the
 * authenticator over the users file (null when security is off) and the
 * TLS context of the client and HTTP ports (null for plain TCP). Warns
 * loudly when the server binds beyond loopback without authentication, or
 * takes HTTP Basic passwords without TLS there. Immutable.
 */
record ServerSecurity(Authenticator authenticator, SslContext tls) {
  private static final Logger LOG = Logger.getLogger(ServerSecurity.class.getName());

  /** Reads the users file and the TLS files. @throws StartupException naming the file that cannot be used */
  static ServerSecurity open(SecurityOptions options, String bindAddress, int httpPort) throws StartupException {
    Authenticator authenticator = null;
    if (options.authentication()) {
      try {
        final UserDirectory users = UserDirectory.load(options.usersFile());
        authenticator = new Authenticator(users);
        LOG.info("security on: " + users.size() + " user(s) from " + options.usersFile());
      } catch (IOException e) {
        throw new StartupException("cannot read the users file: " + e.getMessage(), e);
      }
    }
    SslContext tls = null;
    if (options.tls() != null) {
      try {
        tls = ServerTls.context(options.tls());
        LOG.info("TLS on the client" + (httpPort >= 0 ? " and HTTP ports" : " port") + ": " + options.tls());
      } catch (IOException e) {
        throw new StartupException(e.getMessage(), e);
      }
    }
    warnIfExposed(options, bindAddress, httpPort);
    return new ServerSecurity(authenticator, tls);
  }

  private static void warnIfExposed(SecurityOptions options, String bindAddress, int httpPort) {
    if (isLoopback(bindAddress)) {
      return;
    }
    if (!options.authentication()) {
      final String line = "!".repeat(78);
      LOG.warning("\n" + line + "\n!! SECURITY IS OFF and the server listens on " + bindAddress + ", beyond this"
          + " machine:\n!! anyone who can reach its ports can run any SQL, any procedure and @Shutdown.\n!! Start it"
          + " with --users FILE (and TLS: --tls-cert/--tls-key), or bind to 127.0.0.1 (docs/security.md).\n" + line);
      System.err.println("partita: WARNING: security is off and the server listens on " + bindAddress
          + ": anyone who can reach it can do anything; see docs/security.md");
    } else if (options.tls() == null) {
      LOG.warning("security is on but TLS is off on " + bindAddress + ": calls, results"
          + (httpPort >= 0 ? " and HTTP Basic passwords" : "") + " cross the network in clear; give --tls-cert and"
          + " --tls-key (docs/security.md)");
    }
  }

  static boolean isLoopback(String bindAddress) {
    try {
      return InetAddress.getByName(bindAddress).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
