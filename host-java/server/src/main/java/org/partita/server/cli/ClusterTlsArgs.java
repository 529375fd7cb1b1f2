package org.partita.server.cli;

import java.nio.file.Path;
import org.partita.server.security.ClusterTlsFiles;
import picocli.CommandLine.Option;

/**
 * The cluster admission options of {@code partita start --cluster}
 * (docs/security.md, "Cluster admission"): the host's certificate and key
 * and the cluster's authorities, for mutual TLS on the internal and
 * metadata ports. A picocli mixin; not thread-safe.
 */
final class ClusterTlsArgs {
  @Option(names = "--cluster-tls-cert", paramLabel = "PEM", description = "with --cluster: admit only the cluster's "
      + "hosts (mutual TLS on the internal and metadata ports): this host's certificate (PEM), naming its --bind "
      + "address, with --cluster-tls-key and --cluster-ca")
  private Path certificate;

  @Option(names = "--cluster-tls-key", paramLabel = "PEM", description = "this host's private key for "
      + "--cluster-tls-cert (PKCS#8 PEM)")
  private Path key;

  @Option(names = "--cluster-ca", paramLabel = "PEM", description = "the authorities (PEM) that sign the cluster's "
      + "host certificates; a process without such a certificate cannot join, send heartbeats, watch or vote")
  private Path authorities;

  /**
   * The files, or null when no option is given.
   *
   * @throws IllegalArgumentException when only some are given, or any is given without {@code --cluster}
   */
  ClusterTlsFiles files(boolean cluster) {
    final ClusterTlsFiles files = ClusterTlsFiles.of(certificate, key, authorities);
    if (files != null && !cluster) {
      throw new IllegalArgumentException("--cluster-tls-cert, --cluster-tls-key and --cluster-ca need --cluster "
          + "(for TLS on the client and HTTP ports, use --tls-cert and --tls-key)");
    }
    return files;
  }
}
