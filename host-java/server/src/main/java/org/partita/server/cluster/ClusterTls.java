package org.partita.server.cluster;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.apache.ratis.conf.Parameters;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.grpc.GrpcTlsConfig;
import org.partita.server.security.ClusterTlsFiles;

/**
 * The mutual TLS of a secured cluster's host-to-host traffic
 * (docs/security.md, "Cluster admission"), built once at start from
 * {@link ClusterTlsFiles}: the internal port's server and client contexts
 * (each side presents its certificate and requires one signed by the
 * cluster's authorities; a host checks that the host it connects to is
 * named in its certificate) and the Ratis gRPC parameters of the metadata
 * port (the same files, mutual TLS on). {@link #open} refuses a host
 * certificate that does not name the host's own address or is not signed
 * by the cluster's authorities, since every other host would refuse it.
 *
 * <p>Immutable; thread-safe (Netty's contexts are).
 */
final class ClusterTls {
  private final ClusterTlsFiles files;
  private final SslContext server;
  private final SslContext client;

  private ClusterTls(ClusterTlsFiles files, SslContext server, SslContext client) {
    this.files = files;
    this.server = server;
    this.client = client;
  }

  /**
   * Reads and checks the files of a host bound to {@code self}.
   *
   * @throws ClusterException naming the file and what is wrong with it
   */
  static ClusterTls open(ClusterTlsFiles files, InetAddress self) throws ClusterException {
    final List<X509Certificate> chain = certificates("--cluster-tls-cert", files.certificate());
    final List<X509Certificate> authorities = certificates("--cluster-ca", files.authorities());
    if (!HostAdmission.names(chain.get(0), self)) {
      throw new ClusterException("--cluster-tls-cert " + files.certificate() + " does not name this host's address "
          + self.getHostAddress() + " (subject alternative names " + HostAdmission.addressesNamed(chain.get(0))
          + "); the other hosts would refuse it: give each host a certificate with its own address (IP:"
          + self.getHostAddress() + ")", null);
    }
    try {
      trustManager(authorities).checkClientTrusted(chain.toArray(new X509Certificate[0]), "UNKNOWN");
    } catch (GeneralSecurityException e) {
      throw new ClusterException("--cluster-tls-cert " + files.certificate() + " is not signed by an authority in "
          + "--cluster-ca " + files.authorities() + " (" + e.getMessage() + "); the other hosts would refuse it", e);
    }
    try {
      final SslContext server = SslContextBuilder.forServer(files.certificate().toFile(), files.key().toFile())
          .trustManager(files.authorities().toFile()).clientAuth(ClientAuth.REQUIRE).build();
      final SslContext client = SslContextBuilder.forClient()
          .keyManager(files.certificate().toFile(), files.key().toFile())
          .trustManager(files.authorities().toFile()).build();
      return new ClusterTls(files, server, client);
    } catch (IOException | IllegalArgumentException e) {
      throw new ClusterException("cannot set up the cluster's TLS from " + files + ": " + e.getMessage(), e);
    }
  }

  private static List<X509Certificate> certificates(String option, Path file)
      throws ClusterException {
    try (InputStream in = Files.newInputStream(file)) {
      final Collection<? extends Certificate> read =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      final List<X509Certificate> out = new ArrayList<>();
      for (Certificate c : read) {
        out.add((X509Certificate) c);
      }
      if (out.isEmpty()) {
        throw new ClusterException(option + " " + file + " holds no PEM certificate", null);
      }
      return out;
    } catch (IOException | GeneralSecurityException e) {
      throw new ClusterException("cannot read " + option + " " + file + ": " + e.getMessage(), e);
    }
  }

  private static X509TrustManager trustManager(List<X509Certificate> authorities) throws GeneralSecurityException {
    try {
      final KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      for (int i = 0; i < authorities.size(); i++) {
        store.setCertificateEntry("authority-" + i, authorities.get(i));
      }
      final TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return (X509TrustManager) factory.getTrustManagers()[0];
    } catch (IOException e) {
      throw new GeneralSecurityException(e.getMessage(), e);
    }
  }

  /** The TLS handler of a connection another host opened to this one (requires the peer's certificate). */
  SslHandler acceptingHandler(ByteBufAllocator allocator) {
    return server.newHandler(allocator);
  }

  /** The TLS handler of a connection this host opens to {@code peer}, whose certificate must name it. */
  SslHandler connectingHandler(ByteBufAllocator allocator, InetSocketAddress peer) {
    final SslHandler handler = client.newHandler(allocator, peer.getAddress().getHostAddress(), peer.getPort());
    final SSLEngine engine = handler.engine();
    final SSLParameters parameters = engine.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    engine.setSSLParameters(parameters);
    return handler;
  }

  /** Ratis gRPC parameters for the metadata port: mutual TLS from the same files. */
  Parameters ratisParameters() {
    final Parameters parameters = new Parameters();
    GrpcConfigKeys.TLS.setConf(parameters, new GrpcTlsConfig(files.key().toFile(), files.certificate().toFile(),
        files.authorities().toFile(), true));
    return parameters;
  }

  /** The Ratis parameters for {@code tls}: empty (plain gRPC) when the cluster is not secured. */
  static Parameters ratisParameters(ClusterTls tls) {
    return tls == null ? new Parameters() : tls.ratisParameters();
  }

  @Override
  public String toString() {
    return files.toString();
  }
}
