package org.partita.server.cli;

import java.io.Console;
import java.nio.file.Path;
import org.partita.client.ClientConfig;
import org.partita.client.TlsOptions;
import picocli.CommandLine.Option;

/**
 * How {@code partita sql} and {@code partita stop} log in to a secured
 * server (docs/security.md): the user, its password (from
 * $PARTITA_PASSWORD, else asked on the terminal), and TLS. A picocli mixin;
 * not thread-safe.
 */
final class ClientLoginArgs {
  /** The environment variable holding the password of --user. */
  static final String PASSWORD_ENV = "PARTITA_PASSWORD";

  @Option(names = "--user", paramLabel = "NAME", description = "log in as this user (SCRAM-SHA-256); the password "
      + "comes from $" + PASSWORD_ENV + " or is asked on the terminal")
  private String user;

  @Option(names = "--tls", description = "speak TLS, verifying the server against this JVM's authorities")
  private boolean tls;

  @Option(names = "--tls-trust", paramLabel = "PEM", description = "speak TLS, trusting the certificates of this "
      + "PEM file")
  private Path trust;

  /** Adds the credentials and TLS asked for to {@code config}. @throws IllegalArgumentException without a password */
  ClientConfig.Builder apply(ClientConfig.Builder config) {
    if (user != null) {
      config.credentials(user, password());
    }
    if (tls || trust != null) {
      config.tls(trust == null ? TlsOptions.defaults() : TlsOptions.builder().trustCertificates(trust).build());
    }
    return config;
  }

  private String password() {
    final String fromEnv = System.getenv(PASSWORD_ENV);
    if (fromEnv != null) {
      return fromEnv;
    }
    final Console console = System.console();
    if (console == null) {
      throw new IllegalArgumentException("--user " + user + " needs a password: set $" + PASSWORD_ENV
          + " (no terminal to ask on)");
    }
    final char[] typed = console.readPassword("password for %s: ", user);
    if (typed == null) {
      throw new IllegalArgumentException("no password given for --user " + user);
    }
    return new String(typed);
  }
}
