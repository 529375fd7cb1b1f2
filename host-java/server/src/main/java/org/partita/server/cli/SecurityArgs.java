package org.partita.server.cli;

import java.nio.file.Path;
import org.partita.server.security.SecurityOptions;
import org.partita.server.security.TlsFiles;
import picocli.CommandLine.Option;

/**
 * The security options of {@code partita start} (docs/security.md): the
 * users file and the TLS files. A picocli mixin; not thread-safe.
 */
final class SecurityArgs {
  /** The environment variable read for the key store's password when --tls-keystore-password is not given. */
  static final String KEYSTORE_PASSWORD_ENV = "PARTITA_TLS_KEYSTORE_PASSWORD";

  @Option(names = "--users", paramLabel = "FILE", description = "turn security on: users, their roles and SCRAM "
      + "credentials (one per line; 'partita passwd' writes them); every client must log in and is checked against "
      + "its roles (default: off, everyone may do everything)")
  private Path users;

  @Option(names = "--tls-cert", paramLabel = "PEM", description = "TLS on the client and HTTP ports: the server's "
      + "certificate chain (PEM), with --tls-key")
  private Path tlsCert;

  @Option(names = "--tls-key", paramLabel = "PEM", description = "the server's private key (PKCS#8 PEM)")
  private Path tlsKey;

  @Option(names = "--tls-keystore", paramLabel = "FILE", description = "TLS from a key store (PKCS#12 or JKS) "
      + "holding the server's certificate and key, instead of --tls-cert/--tls-key; its password comes from "
      + "--tls-keystore-password or $" + KEYSTORE_PASSWORD_ENV)
  private Path tlsKeyStore;

  @Option(names = "--tls-keystore-password", paramLabel = "PASSWORD", description = "the key store's password "
      + "(visible to other users of this machine in the process list: prefer $" + KEYSTORE_PASSWORD_ENV + ")")
  private String tlsKeyStorePassword;

  @Option(names = "--tls-client-ca", paramLabel = "PEM", description = "require client certificates signed by "
      + "these authorities (PEM) on the client and HTTP ports")
  private Path tlsClientCa;

  /** @throws IllegalArgumentException when the TLS options do not go together */
  SecurityOptions options() {
    final boolean anyTls = tlsCert != null || tlsKey != null || tlsKeyStore != null || tlsClientCa != null;
    final String password = tlsKeyStorePassword != null ? tlsKeyStorePassword : System.getenv(KEYSTORE_PASSWORD_ENV);
    return new SecurityOptions(users, anyTls ? new TlsFiles(tlsCert, tlsKey, tlsKeyStore, password, tlsClientCa) : null);
  }
}
