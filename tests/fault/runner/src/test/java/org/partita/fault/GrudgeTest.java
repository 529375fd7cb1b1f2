package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GrudgeTest {
  @Test
  void shouldCutAnIsolatedHostFromEveryOther() {
    final Grudge g = Grudge.isolate(1, 3);
    assertEquals(Set.of(List.of(0, 1), List.of(1, 2)), g.links());
    assertEquals(Set.of(1), g.minority());
    assertEquals("host 1 isolated", g.description());
  }

  @Test
  void shouldCutAMinorityFromTheMajorityOnly() {
    final Grudge g = Grudge.halves(List.of(4, 0), 5);
    assertEquals(Set.of(List.of(0, 1), List.of(0, 2), List.of(0, 3), List.of(1, 4), List.of(2, 4),
        List.of(3, 4)), g.links());
    assertEquals(Set.of(0, 4), g.minority());
    assertEquals("hosts [0, 4] (minority) cut off from [1, 2, 3] (majority)", g.description());
  }

  @Test
  void shouldLetTheBridgeReachBothSides() {
    final Grudge g = Grudge.bridge(1, List.of(0), List.of(2));
    assertEquals(Set.of(List.of(0, 2)), g.links());
    assertEquals(Set.of(), g.minority());
  }

  @Test
  void shouldRefuseWhatIsNoPartition() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Grudge.halves(List.of(0, 1), 3)).getMessage()
        .contains("a minority of 3 hosts has 1 to 1 hosts, not 2"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Grudge.isolate(3, 3)).getMessage()
        .contains("host 3 is not one of the 3 hosts"));
    assertThrows(IllegalArgumentException.class, () -> Grudge.bridge(0, List.of(0), List.of(1)));
    assertThrows(IllegalArgumentException.class, () -> Grudge.bridge(2, List.of(), List.of(1)));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Grudge.random(new Random(1), 2)).getMessage()
        .contains("3 hosts or more"));
  }

  @Test
  void shouldDrawEveryKindFromTheSeedAndRepeatIt() {
    final Set<String> kinds = new HashSet<>();
    final Random a = new Random(42);
    final Random b = new Random(42);
    for (int i = 0; i < 60; i++) {
      final Grudge g = Grudge.random(a, 5);
      assertEquals(g, Grudge.random(b, 5));
      assertTrue(!g.links().isEmpty(), g.toString());
      assertTrue(g.minority().size() <= 2, g.toString());
      kinds.add(g.description().contains("isolated") ? "isolate" : g.description().contains("bridging") ? "bridge"
          : "halves");
    }
    assertEquals(Set.of("isolate", "bridge", "halves"), kinds);
  }
}
