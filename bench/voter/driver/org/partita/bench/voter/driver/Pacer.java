package org.partita.bench.voter.driver;

import java.util.concurrent.locks.LockSupport;

/**
 * A fixed-rate schedule: call n is due at start + offset + n × interval.
 * Parks, never spins: the kernel wakes the thread some tens of µs late, so
 * calls then go out in small groups of those that fell due meanwhile, and a
 * small machine keeps its cores for the server. A rate of 0 never waits.
 * Not thread-safe: one per calling thread.
 */
final class Pacer {
  private final double intervalNanos;
  private final long start;
  private long n;

  /** {@code ratePerSecond} calls per second (0 = no pacing), the first due {@code offsetNanos} after now. */
  Pacer(double ratePerSecond, long offsetNanos) {
    this.intervalNanos = ratePerSecond > 0 ? 1e9 / ratePerSecond : 0;
    this.start = System.nanoTime() + offsetNanos;
  }

  /** Waits until the next call is due. */
  void awaitNext() {
    if (intervalNanos == 0) {
      return;
    }
    final long due = start + (long) (n++ * intervalNanos);
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }
}
