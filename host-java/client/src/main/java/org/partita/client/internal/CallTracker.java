package org.partita.client.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts the client's calls between being handed to a connection and being
 * completed, so that {@code drain()} can wait for zero. Thread-safe.
 */
public final class CallTracker {
  private final AtomicLong outstanding = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();

  public void started() {
    outstanding.incrementAndGet();
  }

  public void finished() {
    if (outstanding.decrementAndGet() == 0) {
      lock.lock();
      try {
        idle.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  public long outstanding() {
    return outstanding.get();
  }

  /** Blocks until no call is outstanding. */
  public void awaitIdle() throws InterruptedException {
    lock.lock();
    try {
      while (outstanding.get() > 0) {
        // The timed wait covers a signal sent between the check and the wait.
        idle.await(10, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }
}
