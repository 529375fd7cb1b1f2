package org.partita.client.internal;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClientException;
import org.partita.client.TlsOptions;

/**
 * The client's TLS: one Netty {@link SslContext} per client from its
 * {@link TlsOptions}, and a handler per channel that checks the server's
 * certificate and, unless turned off, its host name. Stateless.
 */
public final class ClientTls {
  private ClientTls() {}

  /** The context for {@code options}; fails naming the file that cannot be read. */
  public static SslContext context(TlsOptions options) throws PartitaClientException {
    final SslContextBuilder builder = SslContextBuilder.forClient();
    try {
      if (options.trustCertificates() != null) {
        builder.trustManager(options.trustCertificates().toFile());
      } else if (options.trustStore() != null) {
        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(load(options.trustStore(), options.trustStorePassword()));
        builder.trustManager(trust);
      }
      if (options.keyStore() != null) {
        final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        final char[] password = chars(options.keyStorePassword());
        keys.init(load(options.keyStore(), options.keyStorePassword()), password);
        builder.keyManager(keys);
      }
      return builder.build();
    } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
      throw new PartitaClientException("cannot set up TLS (" + options + "): " + e.getMessage(), e);
    }
  }

  /** A key store of any type the JVM recognises (PKCS#12, JKS). */
  public static KeyStore load(Path file, String password) throws IOException, GeneralSecurityException {
    return KeyStore.getInstance(file.toFile(), chars(password));
  }

  private static char[] chars(String password) {
    return password == null ? new char[0] : password.toCharArray();
  }

  /** The TLS handler of one channel to {@code host:port}. */
  static SslHandler handler(SslContext context, Channel channel, String host, int port, ClientConfig config) {
    final SslHandler handler = context.newHandler(channel.alloc(), host, port);
    final SSLEngine engine = handler.engine();
    if (config.tls().verifyHostname()) {
      final SSLParameters parameters = engine.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      engine.setSSLParameters(parameters);
    }
    handler.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
    return handler;
  }
}
