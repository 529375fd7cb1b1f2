package org.partita.server.security;

import java.nio.file.Path;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Where a cluster host's identity for host-to-host traffic comes from
 * (docs/security.md, "Cluster admission"): its certificate (PEM, naming the
 * host's own address), its private key (PKCS#8 PEM) and the cluster's
 * authorities (PEM) whose certificates it accepts from other hosts. With
 * these the internal port and the metadata port speak mutual TLS. Immutable.
 *
 * @param certificate this host's certificate chain, PEM
 * @param key this host's private key, PKCS#8 PEM
 * @param authorities the certificates of the authorities that sign the cluster's hosts, PEM
 */
public record ClusterTlsFiles(Path certificate, Path key, Path authorities) {
  public ClusterTlsFiles {
    Objects.requireNonNull(certificate, "certificate");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(authorities, "authorities");
  }

  /**
   * The files from the three options, or null when none is given.
   *
   * @throws IllegalArgumentException when some but not all are given
   */
  public static ClusterTlsFiles of(Path certificate, Path key, Path authorities) {
    if (certificate == null && key == null && authorities == null) {
      return null;
    }
    if (certificate == null || key == null || authorities == null) {
      final StringJoiner given = new StringJoiner(", ");
      if (certificate != null) {
        given.add("--cluster-tls-cert");
      }
      if (key != null) {
        given.add("--cluster-tls-key");
      }
      if (authorities != null) {
        given.add("--cluster-ca");
      }
      throw new IllegalArgumentException("--cluster-tls-cert, --cluster-tls-key and --cluster-ca go together (given: "
          + given + ")");
    }
    return new ClusterTlsFiles(certificate, key, authorities);
  }

  @Override
  public String toString() {
    return "certificate " + certificate + ", key " + key + ", cluster authorities " + authorities;
  }
}
