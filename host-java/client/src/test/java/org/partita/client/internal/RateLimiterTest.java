package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RateLimiterTest {
  @Test
  @Timeout(10)
  void shouldLetABurstThroughAtOnce() {
    final RateLimiter limiter = new RateLimiter(1000);
    final long begin = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      limiter.acquire();
    }
    assertTrue(System.nanoTime() - begin < TimeUnit.MILLISECONDS.toNanos(500));
  }

  @Test
  @Timeout(10)
  void shouldSpaceCallsBeyondTheBurst() {
    final RateLimiter limiter = new RateLimiter(500);
    final long begin = System.nanoTime();
    for (int i = 0; i < 60; i++) {
      limiter.acquire();
    }
    // 60 calls at 500/s with a 10 ms burst need at least ~100 ms.
    assertTrue(System.nanoTime() - begin >= TimeUnit.MILLISECONDS.toNanos(90));
  }

  @Test
  void shouldRejectANonPositiveRate() {
    assertThrows(IllegalArgumentException.class, () -> new RateLimiter(0));
  }
}
