package org.partita.server.security;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** How logs and the audit trail write a client's address. Stateless. */
public final class PeerAddress {
  private PeerAddress() {}

  /** "127.0.0.1:5000", "[::1]:5000"; anything else as the address prints itself. */
  public static String of(SocketAddress address) {
    if (!(address instanceof InetSocketAddress inet)) {
      return String.valueOf(address);
    }
    final String host = inet.getHostString();
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
  }
}
