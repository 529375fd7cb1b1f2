package org.partita.jdbc;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Partita JDBC driver: {@code jdbc:partita://host[:port][,host[:port]...][?key=value&...]}
 * (host-java/jdbc/README.md). Registered with DriverManager when loaded
 * (through META-INF/services/java.sql.Driver or Class.forName). Each
 * connection is one {@link org.partita.client.PartitaClient}. Thread-safe
 * and stateless.
 */
public final class PartitaDriver implements Driver {
  static final int MAJOR_VERSION = 0;
  static final int MINOR_VERSION = 1;

  static {
    try {
      DriverManager.registerDriver(new PartitaDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Connects to the servers of {@code url}, or returns null when the URL is
   * not a Partita URL (as JDBC asks, so DriverManager tries the next driver).
   *
   * @throws SQLException 08001 for a malformed URL or when no server can be reached
   */
  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    return PartitaConnection.open(JdbcUrl.parse(url, info));
  }

  @Override
  public boolean acceptsURL(String url) {
    return JdbcUrl.accepts(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[] {
        property("callTimeoutMs", "timeout of each call in milliseconds (Statement.setQueryTimeout overrides it)"),
        property("connectTimeoutMs", "timeout of connecting and logging in, in milliseconds"),
        property("maxInFlight", "calls in flight per server connection (batches are pipelined up to it)"),
        property("reconnect", "true (default): reconnect with backoff when a server connection drops"),
        property("user", "the user to log in as (SCRAM-SHA-256); none: no authentication"),
        property("password", "the user's password (never sent: SCRAM proves it)"),
        property("tls", "true: TLS to every server, verifying it (the tls* keys below also turn it on)"),
        property("tlsTrustCertificates", "a PEM file of the certificates to trust instead of the JVM's"),
        property("tlsTrustStore", "a key store (PKCS#12, JKS) of the certificates to trust"),
        property("tlsTrustStorePassword", "the trust store's password"),
        property("tlsKeyStore", "a key store holding this client's certificate, for servers that require one"),
        property("tlsKeyStorePassword", "the key store's password"),
        property("tlsVerifyHostname", "true (default): the server's certificate must name the host"),
    };
  }

  private static DriverPropertyInfo property(String name, String description) {
    final DriverPropertyInfo p = new DriverPropertyInfo(name, null);
    p.description = description;
    return p;
  }

  @Override
  public int getMajorVersion() {
    return MAJOR_VERSION;
  }

  @Override
  public int getMinorVersion() {
    return MINOR_VERSION;
  }

  /** No: auto-commit only, no SQL-92 entry level conformance claimed. */
  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return Logger.getLogger("org.partita.jdbc");
  }
}
