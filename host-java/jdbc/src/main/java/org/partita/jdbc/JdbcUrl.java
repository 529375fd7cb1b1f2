package org.partita.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.nio.file.Path;
import org.partita.client.ClientConfig;
import org.partita.client.TlsOptions;

/**
 * A parsed connection URL: {@code jdbc:partita://host[:port][,host[:port]...][/][?key=value[&key=value...]]}
 * plus the driver's properties. Keys (in the URL or in the Properties given to
 * {@code connect}; the Properties win): {@code callTimeoutMs},
 * {@code connectTimeoutMs}, {@code maxInFlight}, {@code reconnect}
 * ({@code true}/{@code false}); {@code user} and {@code password} (a
 * SCRAM-SHA-256 login, docs/security.md; no user: no authentication);
 * {@code tls} ({@code true}: TLS, verifying the server against the JVM's
 * authorities), {@code tlsTrustCertificates} (a PEM file of trusted
 * certificates), {@code tlsTrustStore} and {@code tlsTrustStorePassword},
 * {@code tlsKeyStore} and {@code tlsKeyStorePassword} (a client certificate),
 * {@code tlsVerifyHostname} (default true); any tls* key turns TLS on. Any
 * other key is an error, so that a misspelt one is not silently dropped. Immutable.
 *
 * @param url the URL as given
 * @param servers "host:port" of each server, in order (the default port is 21212)
 * @param properties every key and value given
 */
record JdbcUrl(String url, List<String> servers, Map<String, String> properties) {
  static final String PREFIX = "jdbc:partita://";
  private static final Set<String> KEYS = Set.of("callTimeoutMs", "connectTimeoutMs", "maxInFlight", "reconnect",
      "user", "password", "tls", "tlsTrustCertificates", "tlsTrustStore", "tlsTrustStorePassword", "tlsKeyStore",
      "tlsKeyStorePassword", "tlsVerifyHostname");

  JdbcUrl {
    servers = List.copyOf(servers);
    properties = Map.copyOf(properties);
  }

  static boolean accepts(String url) {
    return url != null && url.startsWith(PREFIX);
  }

  /**
   * Parses {@code url} and merges {@code info}.
   *
   * @throws SQLException (SQLState 08001) naming what is wrong and where
   */
  static JdbcUrl parse(String url, Properties info) throws SQLException {
    if (!accepts(url)) {
      throw bad(url, "it must start with " + PREFIX);
    }
    final String rest = url.substring(PREFIX.length());
    final int query = rest.indexOf('?');
    String hosts = query < 0 ? rest : rest.substring(0, query);
    if (hosts.endsWith("/")) {
      hosts = hosts.substring(0, hosts.length() - 1);
    }
    final List<String> servers = new ArrayList<>();
    for (String host : hosts.split(",", -1)) {
      servers.add(server(url, host.trim()));
    }
    final Map<String, String> properties = new LinkedHashMap<>();
    if (query >= 0) {
      for (String pair : rest.substring(query + 1).split("&", -1)) {
        final int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw bad(url, "'" + pair + "' in the query is not key=value");
        }
        properties.put(pair.substring(0, eq), pair.substring(eq + 1));
      }
    }
    if (info != null) {
      for (String key : info.stringPropertyNames()) {
        properties.put(key, info.getProperty(key));
      }
    }
    for (String key : properties.keySet()) {
      if (!KEYS.contains(key)) {
        throw bad(url, "unknown property '" + key + "'; properties: callTimeoutMs, connectTimeoutMs, maxInFlight,"
            + " reconnect, user, password");
      }
    }
    final JdbcUrl parsed = new JdbcUrl(url, servers, properties);
    parsed.clientConfig();
    return parsed;
  }

  private static String server(String url, String host) throws SQLException {
    if (host.isEmpty()) {
      throw bad(url, "a server address is empty (expected host[:port][,host[:port]...])");
    }
    final int colon = host.lastIndexOf(':');
    if (colon < 0 || host.endsWith("]")) {
      return host + ":" + ClientConfig.DEFAULT_PORT;
    }
    final String port = host.substring(colon + 1);
    try {
      final int p = Integer.parseInt(port);
      if (p < 1 || p > 65535) {
        throw bad(url, "port " + p + " of '" + host + "' is outside 1..65535");
      }
    } catch (NumberFormatException e) {
      throw bad(url, "port '" + port + "' of '" + host + "' is not a number");
    }
    return host;
  }

  /**
   * The client configuration these properties ask for.
   *
   * @throws SQLException (08001) for a value that is not a number, out of range, or not true/false
   */
  ClientConfig clientConfig() throws SQLException {
    final ClientConfig.Builder b = ClientConfig.builder().clientName("partita-jdbc").ioThreads(1);
    try {
      if (properties.containsKey("callTimeoutMs")) {
        b.callTimeout(Duration.ofMillis(positive("callTimeoutMs")));
      }
      if (properties.containsKey("connectTimeoutMs")) {
        b.connectTimeout(Duration.ofMillis(positive("connectTimeoutMs")));
      }
      if (properties.containsKey("maxInFlight")) {
        b.maxInFlightPerConnection((int) Math.min(Integer.MAX_VALUE, positive("maxInFlight")));
      }
      if (properties.containsKey("reconnect")) {
        b.reconnect(bool("reconnect"));
      }
      final String user = properties.get("user");
      if (user != null && !user.isEmpty()) {
        b.credentials(user, properties.getOrDefault("password", ""));
      }
      b.tls(tlsOptions());
      return b.build();
    } catch (IllegalArgumentException e) {
      throw bad(url, e.getMessage());
    }
  }

  /** The TLS the tls* keys ask for, or null for plain TCP. */
  private TlsOptions tlsOptions() throws SQLException {
    final boolean any = properties.keySet().stream().anyMatch(k -> k.startsWith("tls"));
    if (!any || (properties.containsKey("tls") && !bool("tls"))) {
      return null;
    }
    final TlsOptions.Builder tls = TlsOptions.builder();
    if (properties.containsKey("tlsTrustCertificates")) {
      tls.trustCertificates(Path.of(properties.get("tlsTrustCertificates")));
    }
    if (properties.containsKey("tlsTrustStore")) {
      tls.trustStore(Path.of(properties.get("tlsTrustStore")), properties.get("tlsTrustStorePassword"));
    }
    if (properties.containsKey("tlsKeyStore")) {
      tls.keyStore(Path.of(properties.get("tlsKeyStore")), properties.get("tlsKeyStorePassword"));
    }
    if (properties.containsKey("tlsVerifyHostname")) {
      tls.verifyHostname(bool("tlsVerifyHostname"));
    }
    return tls.build();
  }

  private long positive(String key) throws SQLException {
    final String value = properties.get(key);
    try {
      final long v = Long.parseLong(value.trim());
      if (v <= 0) {
        throw bad(url, key + " must be positive, got " + v);
      }
      return v;
    } catch (NumberFormatException e) {
      throw bad(url, key + " must be a number, got '" + value + "'");
    }
  }

  private boolean bool(String key) throws SQLException {
    final String value = properties.get(key).trim();
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw bad(url, key + " must be true or false, got '" + value + "'");
  }

  private static SQLException bad(String url, String why) {
    return new SQLException("bad Partita JDBC URL '" + url + "': " + why, SqlStates.UNABLE_TO_CONNECT);
  }
}
