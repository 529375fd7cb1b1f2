package org.partita.client.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A token bucket that slows callers down to {@code perSecond} calls per
 * second, allowing bursts of about 10 ms worth of calls (at least one).
 * Each call reserves the next free slot with one CAS and, when the slot is
 * in the future, parks the calling thread until then. Thread-safe.
 */
public final class RateLimiter {
  private static final long BURST_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final long intervalNanos;
  private final long burstNanos;
  private final AtomicLong nextSlot;

  public RateLimiter(long perSecond) {
    if (perSecond <= 0) {
      throw new IllegalArgumentException("rate must be positive, got " + perSecond);
    }
    this.intervalNanos = Math.max(1, TimeUnit.SECONDS.toNanos(1) / perSecond);
    this.burstNanos = Math.max(intervalNanos, BURST_NANOS);
    this.nextSlot = new AtomicLong(System.nanoTime());
  }

  /** Waits (uninterruptibly, keeping the interrupt flag) until the caller may start one call. */
  public void acquire() {
    final long now = System.nanoTime();
    long allowedAt;
    while (true) {
      // GCRA: nextSlot is the theoretical arrival time of the next call; a
      // call may start up to burstNanos before it.
      final long next = nextSlot.get();
      final long arrival = next - now > 0 ? next : now;
      if (nextSlot.compareAndSet(next, arrival + intervalNanos)) {
        allowedAt = next - burstNanos;
        break;
      }
    }
    long wait;
    while ((wait = allowedAt - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }
}
