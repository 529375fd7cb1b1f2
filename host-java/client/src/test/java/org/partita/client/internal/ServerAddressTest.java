package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ServerAddressTest {
  @Test
  void shouldReadHostAndPort() {
    assertEquals(new ServerAddress("db1", 5000), ServerAddress.parse("db1:5000", 21212));
    assertEquals(new ServerAddress("db1", 21212), ServerAddress.parse(" db1 ", 21212));
    assertEquals(new ServerAddress("::1", 7), ServerAddress.parse("[::1]:7", 21212));
    assertEquals(new ServerAddress("::1", 21212), ServerAddress.parse("[::1]", 21212));
    assertEquals("[::1]:7", new ServerAddress("::1", 7).toString());
  }

  @Test
  void shouldRejectMalformedAddresses() {
    assertEquals("server address is empty; expected host or host:port",
        assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("", 1)).getMessage());
    assertEquals("server address \"db:0\": port 0 is outside 1..65535",
        assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("db:0", 1)).getMessage());
    assertEquals("server address \":5\" has no host",
        assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse(":5", 1)).getMessage());
    assertEquals("server address \"::1:5\": write IPv6 addresses in brackets, e.g. [::1]:21212",
        assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("::1:5", 1)).getMessage());
    assertEquals("server address \"[::1\": '[' without ']'",
        assertThrows(IllegalArgumentException.class, () -> ServerAddress.parse("[::1", 1)).getMessage());
  }
}
