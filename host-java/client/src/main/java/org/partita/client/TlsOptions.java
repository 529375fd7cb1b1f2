package org.partita.client;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a client speaks TLS to Partita servers (docs/security.md). The client
 * verifies the server by default: its certificate must chain to a trusted
 * authority (this JVM's default trust store, or the certificates or trust
 * store given here) and name the host connected to. Immutable.
 *
 * <pre>{@code
 * TlsOptions tls = TlsOptions.builder().trustCertificates(Path.of("server-ca.pem")).build();
 * ClientConfig config = ClientConfig.builder().tls(tls).credentials("alice", secret).build();
 * }</pre>
 */
public final class TlsOptions {
  private final Path trustCertificates;
  private final Path trustStore;
  private final String trustStorePassword;
  private final Path keyStore;
  private final String keyStorePassword;
  private final boolean verifyHostname;

  private TlsOptions(Builder b) {
    this.trustCertificates = b.trustCertificates;
    this.trustStore = b.trustStore;
    this.trustStorePassword = b.trustStorePassword;
    this.keyStore = b.keyStore;
    this.keyStorePassword = b.keyStorePassword;
    this.verifyHostname = b.verifyHostname;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** TLS trusting this JVM's default authorities, verifying host names. */
  public static TlsOptions defaults() {
    return builder().build();
  }

  /** A PEM file of trusted certificates, or null. */
  public Path trustCertificates() {
    return trustCertificates;
  }

  /** A trust store (PKCS#12 or JKS) of trusted certificates, or null. */
  public Path trustStore() {
    return trustStore;
  }

  public String trustStorePassword() {
    return trustStorePassword;
  }

  /** A key store holding this client's certificate and key, for servers that require one; or null. */
  public Path keyStore() {
    return keyStore;
  }

  public String keyStorePassword() {
    return keyStorePassword;
  }

  /** Whether the server's certificate must name the host connected to. Default true. */
  public boolean verifyHostname() {
    return verifyHostname;
  }

  @Override
  public String toString() {
    return "TlsOptions{trustCertificates=" + trustCertificates + ", trustStore=" + trustStore + ", keyStore="
        + keyStore + ", verifyHostname=" + verifyHostname + "}";
  }

  /** Builds {@link TlsOptions}. Not thread-safe. */
  public static final class Builder {
    private Path trustCertificates;
    private Path trustStore;
    private String trustStorePassword;
    private Path keyStore;
    private String keyStorePassword;
    private boolean verifyHostname = true;

    private Builder() {}

    /** Trusts the certificates of this PEM file instead of the JVM's default authorities. */
    public Builder trustCertificates(Path pemFile) {
      this.trustCertificates = Objects.requireNonNull(pemFile, "trustCertificates");
      return this;
    }

    /** Trusts the certificates of this key store (PKCS#12 or JKS) instead of the JVM's default authorities. */
    public Builder trustStore(Path file, String password) {
      this.trustStore = Objects.requireNonNull(file, "trustStore");
      this.trustStorePassword = password;
      return this;
    }

    /** Presents the certificate and key of this key store (PKCS#12 or JKS) to servers that ask for one. */
    public Builder keyStore(Path file, String password) {
      this.keyStore = Objects.requireNonNull(file, "keyStore");
      this.keyStorePassword = password;
      return this;
    }

    /** False accepts a trusted certificate for any host name (a test setup); default true. */
    public Builder verifyHostname(boolean on) {
      this.verifyHostname = on;
      return this;
    }

    public TlsOptions build() {
      if (trustCertificates != null && trustStore != null) {
        throw new IllegalArgumentException("give trusted certificates or a trust store, not both");
      }
      return new TlsOptions(this);
    }
  }
}
