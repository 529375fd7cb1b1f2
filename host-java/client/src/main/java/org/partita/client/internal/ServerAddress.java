package org.partita.client.internal;

/**
 * A server's "host:port" as given to connect(): host name or address, and
 * the client port (default 21212). IPv6 literals are written in brackets
 * ("[::1]:21212").
 */
public record ServerAddress(String host, int port) {
  /**
   * Parses "host", "host:port" or "[v6-address]:port".
   *
   * @throws IllegalArgumentException naming what is wrong with {@code text}
   */
  public static ServerAddress parse(String text, int defaultPort) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("server address is empty; expected host or host:port");
    }
    final String t = text.trim();
    String host = t;
    String port = null;
    if (t.startsWith("[")) {
      final int close = t.indexOf(']');
      if (close < 0) {
        throw new IllegalArgumentException("server address \"" + text + "\": '[' without ']'");
      }
      host = t.substring(1, close);
      if (close + 1 < t.length()) {
        if (t.charAt(close + 1) != ':') {
          throw new IllegalArgumentException("server address \"" + text + "\": expected ':' after ']'");
        }
        port = t.substring(close + 2);
      }
    } else if (t.indexOf(':') >= 0) {
      if (t.indexOf(':') != t.lastIndexOf(':')) {
        throw new IllegalArgumentException("server address \"" + text + "\": write IPv6 addresses in brackets, "
            + "e.g. [::1]:21212");
      }
      host = t.substring(0, t.indexOf(':'));
      port = t.substring(t.indexOf(':') + 1);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("server address \"" + text + "\" has no host");
    }
    return new ServerAddress(host, port == null ? defaultPort : parsePort(port, text));
  }

  private static int parsePort(String port, String text) {
    final int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("server address \"" + text + "\": port \"" + port + "\" is not a number", e);
    }
    if (p < 1 || p > 65535) {
      throw new IllegalArgumentException("server address \"" + text + "\": port " + p + " is outside 1..65535");
    }
    return p;
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
