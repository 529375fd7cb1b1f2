package org.partita.server.security;

import java.nio.file.Path;

/**
 * Where the server's TLS identity comes from (docs/security.md,
 * "Certificates"): a PEM certificate chain and PKCS#8 PEM key, or a key
 * store (PKCS#12 or JKS); and optionally a PEM file of authorities whose
 * client certificates the server then requires. Immutable.
 *
 * @param certificate PEM certificate chain, or null when a key store is given
 * @param key PEM private key (PKCS#8), with {@code certificate}
 * @param keyStore PKCS#12 or JKS key store holding the certificate and key, or null
 * @param keyStorePassword the key store's (and its key's) password; may be null
 * @param clientAuthorities PEM certificates of the authorities client certificates must chain to; null = no client
 *     certificates asked for
 */
public record TlsFiles(Path certificate, Path key, Path keyStore, String keyStorePassword, Path clientAuthorities) {
  /** @throws IllegalArgumentException unless exactly one of (certificate and key) or keyStore is given */
  public TlsFiles {
    final boolean pem = certificate != null || key != null;
    if (pem && (certificate == null || key == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together");
    }
    if (pem == (keyStore != null)) {
      throw new IllegalArgumentException("TLS needs --tls-cert with --tls-key, or --tls-keystore (not both)");
    }
  }

  @Override
  public String toString() {
    return "TlsFiles{" + (keyStore != null ? "keyStore=" + keyStore : "certificate=" + certificate + ", key=" + key)
        + (clientAuthorities != null ? ", client certificates required from " + clientAuthorities : "") + "}";
  }
}
