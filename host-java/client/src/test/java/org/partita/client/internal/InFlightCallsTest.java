package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class InFlightCallsTest {
  private static PendingCall call(long handle) {
    return new PendingCall(handle, "P", new Object[0], 1_000_000_000L, 0, null, null, new CompletableFuture<>(), null);
  }

  @Test
  void shouldFindEachOfManyConsecutiveHandlesOnceInAnyOrder() {
    final InFlightCalls calls = new InFlightCalls();
    final PendingCall[] all = new PendingCall[10_000];
    for (int h = 0; h < all.length; h++) {
      all[h] = call(h + 1);
      calls.put(all[h]);
    }
    for (int h = all.length - 1; h >= 0; h -= 2) {
      assertSame(all[h], calls.remove(h + 1));
    }
    final Set<Long> left = new HashSet<>();
    calls.values().forEach(c -> left.add(c.handle));
    assertEquals(all.length / 2, left.size());
    assertTrue(left.contains(1L));
    assertNull(calls.remove(2));
    for (int h = 0; h < all.length; h += 2) {
      assertSame(all[h], calls.remove(h + 1));
    }
    assertTrue(calls.isEmpty());
  }
}
