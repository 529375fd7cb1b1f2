package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListenPortsTest {
  @Test
  void shouldDrawBelowTheEphemeralRange() {
    final ListenPorts ports = ListenPorts.below("32768\t60999\n");
    assertEquals(ListenPorts.LOWEST, ports.low());
    assertEquals(32768, ports.high());
  }

  @Test
  void shouldFallBackWhenTheRangeLeavesNoRoomOrCannotBeRead() {
    for (String range : new String[] {"1024 65535", "11000 60999", "", "x y"}) {
      final ListenPorts ports = ListenPorts.below(range);
      assertEquals(ListenPorts.FALLBACK_LOW, ports.low(), range);
      assertEquals(ListenPorts.FALLBACK_HIGH, ports.high(), range);
    }
    assertThrows(IllegalArgumentException.class, () -> new ListenPorts(5, 6));
  }

  @Test
  void shouldDrawDistinctPortsFreeOnEveryHostWithTheMetadataPortFree() throws Exception {
    final ListenPorts ports = ListenPorts.below("32768 60999");
    for (int round = 0; round < 20; round++) {
      final int[] drawn = ports.draw(3);
      assertEquals(3, drawn.length);
      for (int port : drawn) {
        assertTrue(port >= ListenPorts.LOWEST && port + 1 < 32768, Integer.toString(port));
      }
      assertNotEquals(drawn[0], drawn[1]);
      assertFalse(drawn[2] == drawn[0] || drawn[2] == drawn[1] || drawn[2] + 1 == drawn[0]
          || drawn[2] + 1 == drawn[1]);
    }
  }

  @Test
  void shouldNeverDrawAPortTakenOnAnyHost() throws Exception {
    // The range's one drawable port is held on the second host's address (free on the first): no draw succeeds.
    try (ServerSocket held = new ServerSocket()) {
      held.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
      final int port = held.getLocalPort();
      final ListenPorts ports = new ListenPorts(port, port + 2);
      assertThrows(java.io.IOException.class, () -> ports.draw(3));
    }
  }

  @Test
  void shouldSeeABindRefusedOnlyInTheLastStart(@TempDir Path dir) throws Exception {
    final Path log = dir.resolve("cluster.log");
    Files.writeString(log, "$ scripts/cluster start --hosts 3\njava.net.BindException: Address already in use\n"
        + "$ scripts/cluster start --hosts 3\ncluster: ready\n", StandardCharsets.UTF_8);
    assertFalse(ClusterHosts.lastStartFoundAPortTaken(log));
    Files.writeString(log, "$ scripts/cluster start --hosts 3\nhost 1: java.net.BindException: Address already in"
        + " use\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
    assertTrue(ClusterHosts.lastStartFoundAPortTaken(log));
  }
}
