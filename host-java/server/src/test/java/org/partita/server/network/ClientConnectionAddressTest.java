package org.partita.server.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class ClientConnectionAddressTest {
  @Test
  void shouldPrintHostAndPortWithoutTheLeadingSlash() {
    assertEquals("127.0.0.1:5000", ClientConnection.hostAndPort(new InetSocketAddress("127.0.0.1", 5000)));
    assertEquals("[0:0:0:0:0:0:0:1]:21212", ClientConnection.hostAndPort(new InetSocketAddress("::1", 21212)));
  }
}
