package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class NftRulesTest {
  private static final NftRules.Ports PORTS = new NftRules.Ports(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"),
      31215, 31216, 3);

  @Test
  void shouldIsolateAHostOnTheInternalPortAndItsVoterAsAWhole() {
    assertEquals(String.join("\n",
        "table inet partita_fault_7 {}",
        "delete table inet partita_fault_7",
        "table inet partita_fault_7 {",
        "  chain output {",
        "    type filter hook output priority 0; policy accept;",
        "    ip saddr 127.0.0.1 ip daddr 127.0.0.3 tcp dport 31215 drop",
        "    ip saddr 127.0.0.1 ip daddr 127.0.0.3 tcp sport 31215 drop",
        "    ip saddr 127.0.0.3 ip daddr 127.0.0.1 tcp dport 31215 drop",
        "    ip saddr 127.0.0.3 ip daddr 127.0.0.1 tcp sport 31215 drop",
        "    ip saddr 127.0.0.2 ip daddr 127.0.0.3 tcp dport 31215 drop",
        "    ip saddr 127.0.0.2 ip daddr 127.0.0.3 tcp sport 31215 drop",
        "    ip saddr 127.0.0.3 ip daddr 127.0.0.2 tcp dport 31215 drop",
        "    ip saddr 127.0.0.3 ip daddr 127.0.0.2 tcp sport 31215 drop",
        "    ip daddr 127.0.0.3 tcp dport 31216 drop",
        "    ip saddr 127.0.0.3 tcp sport 31216 drop",
        "  }",
        "}",
        ""), NftRules.cut("partita_fault_7", Grudge.isolate(2, 3), PORTS));
  }

  @Test
  void shouldNeverTouchClientPortsAndCutNoVoterForABridge() {
    final String script = NftRules.cut("t", Grudge.bridge(1, List.of(0), List.of(2)), PORTS);
    assertFalse(script.contains("31216"), script);
    assertFalse(script.contains("21212"), script);
    assertEquals(4, script.lines().filter(l -> l.endsWith("drop")).count(), script);
    assertTrue(script.contains("ip saddr 127.0.0.1 ip daddr 127.0.0.3 tcp dport 31215 drop"), script);
  }

  @Test
  void shouldCutOnlyVotersMetadataPorts() {
    final NftRules.Ports five = new NftRules.Ports(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4",
        "127.0.0.5"), 40000, 40001, 3);
    final String script = NftRules.cut("t", Grudge.halves(List.of(2, 4), 5), five);
    assertTrue(script.contains("ip daddr 127.0.0.3 tcp dport 40001 drop"), script);
    assertFalse(script.contains("127.0.0.5 tcp dport 40001"), script);
    assertEquals(6 * 4 + 2, script.lines().filter(l -> l.endsWith("drop")).count(), script);
  }

  @Test
  void shouldCutMetadataTrafficBothWaysByEachHostsCgroup() {
    final NftRules.Ports withCgroups = new NftRules.Ports(PORTS.hostAddresses(), 31215, 31216, 3,
        List.of("unified/partita_fault_7/host-0", "unified/partita_fault_7/host-1", "unified/partita_fault_7/host-2"),
        2);
    final String script = NftRules.cut("t", Grudge.isolate(2, 3), withCgroups);
    for (int[] pair : new int[][] {{0, 2}, {2, 0}, {1, 2}, {2, 1}}) {
      assertTrue(script.contains("    socket cgroupv2 level 2 \"unified/partita_fault_7/host-" + pair[0]
          + "\" ip daddr 127.0.0." + (pair[1] + 1) + " tcp dport 31216 drop\n"), script);
    }
    assertFalse(script.contains("\n    ip daddr"), "no cut by destination alone: " + script);
    assertEquals(8 + 4, script.lines().filter(l -> l.endsWith("drop")).count(), script);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new NftRules.Ports(PORTS.hostAddresses(), 1, 2, 3,
        List.of("a\"; flush ruleset", "b", "c"), 2)).getMessage().contains("cgroup path"));
    assertThrows(IllegalArgumentException.class, () -> new NftRules.Ports(PORTS.hostAddresses(), 1, 2, 3,
        List.of("a"), 2));
  }

  @Test
  void shouldRemoveTheTableWhetherOrNotItExists() {
    assertEquals("table inet partita_fault_9 {}\ndelete table inet partita_fault_9\n",
        NftRules.remove("partita_fault_9"));
  }

  @Test
  void shouldRefuseBadTableNamesAndUnknownHosts() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> NftRules.remove("x; flush ruleset"))
        .getMessage().contains("must be a letter then letters, digits or underscores"));
    assertThrows(IllegalArgumentException.class, () -> NftRules.cut("9t", Grudge.isolate(0, 3), PORTS));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> NftRules.cut("t", Grudge.isolate(3, 5), PORTS))
        .getMessage().contains("host 3 has no address"));
  }
}
