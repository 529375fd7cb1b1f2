package org.partita.server.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/**
 * Builds the server's TLS context (Netty, the JDK's TLS) from
 * {@link TlsFiles}, once at start; every client and HTTP connection then
 * gets its own {@code SslHandler} from it. Stateless.
 */
public final class ServerTls {
  private ServerTls() {}

  /** @throws IOException naming the file when a certificate, key or key store cannot be read */
  public static SslContext context(TlsFiles files) throws IOException {
    try {
      final SslContextBuilder builder;
      if (files.keyStore() != null) {
        final char[] password = files.keyStorePassword() == null ? new char[0] : files.keyStorePassword().toCharArray();
        final KeyStore store = KeyStore.getInstance(files.keyStore().toFile(), password);
        final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password);
        builder = SslContextBuilder.forServer(keys);
      } else {
        builder = SslContextBuilder.forServer(files.certificate().toFile(), files.key().toFile());
      }
      if (files.clientAuthorities() != null) {
        builder.trustManager(files.clientAuthorities().toFile()).clientAuth(ClientAuth.REQUIRE);
      }
      return builder.build();
    } catch (GeneralSecurityException | IllegalArgumentException | IOException e) {
      throw new IOException("cannot set up TLS from " + files + ": " + e.getMessage(), e);
    }
  }
}
