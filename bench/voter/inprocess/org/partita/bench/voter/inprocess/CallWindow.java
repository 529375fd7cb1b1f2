package org.partita.bench.voter.inprocess;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds the calls one submitting thread has outstanding, waking it only
 * when a whole refill's worth of answers has come back. A plain semaphore
 * makes the answering thread (the partition's site) pay a futex wake-up for
 * nearly every answer while the submitter is parked, which measures the
 * scheduler rather than the database.
 *
 * <p>One submitting thread calls {@link #acquire} and {@link #drain};
 * any thread calls {@link #release}.
 */
final class CallWindow {
  private final int size;
  private final int wakeAt;
  private final AtomicInteger outstanding = new AtomicInteger();
  private volatile Thread parked;

  /** At most {@code size} calls outstanding; the submitter wakes once {@code refill} have returned. */
  CallWindow(int size, int refill) {
    if (refill < 1 || refill > size) {
      throw new IllegalArgumentException("refill " + refill + " must be in 1.." + size);
    }
    this.size = size;
    this.wakeAt = size - refill;
  }

  /** Takes one slot, waiting while the window is full. */
  void acquire() {
    waitUntilAtMost(size - 1);
    outstanding.incrementAndGet();
  }

  /** Gives one slot back (an answer arrived). */
  void release() {
    if (outstanding.decrementAndGet() <= wakeAt) {
      final Thread waiter = parked;
      if (waiter != null) {
        LockSupport.unpark(waiter);
      }
    }
  }

  /** Waits until every outstanding call has been answered. */
  void drain() {
    waitUntilAtMost(0);
  }

  private void waitUntilAtMost(int limit) {
    while (outstanding.get() > limit) {
      parked = Thread.currentThread();
      // Re-check after publishing: a release that ran before saw no waiter.
      if (outstanding.get() > limit) {
        LockSupport.park(this);
      }
      parked = null;
    }
  }
}
