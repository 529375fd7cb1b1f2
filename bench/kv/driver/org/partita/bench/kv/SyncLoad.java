package org.partita.bench.kv;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code threads} threads, each running one operation at a time and waiting
 * for its answer (closed loop). A rate limit, when set, is the client's own
 * (ClientConfig.rateLimitPerSecond). Thread model: one thread calls
 * {@link #runUntil}, which starts and joins the workers.
 */
public final class SyncLoad implements Load {
  private final KvOperations operations;
  private final int threads;
  private final SplittableRandom seeds;

  public SyncLoad(KvOperations operations, int threads, long seed) {
    this.operations = operations;
    this.threads = threads;
    this.seeds = new SplittableRandom(seed);
  }

  @Override
  public void runUntil(long deadlineNanos) throws InterruptedException {
    final AtomicReference<Throwable> crash = new AtomicReference<>();
    final List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      final SplittableRandom random = seeds.split();
      final Thread t = new Thread(() -> work(random, deadlineNanos, crash), "kv-sync-" + i);
      t.setDaemon(true);
      workers.add(t);
      t.start();
    }
    for (Thread t : workers) {
      t.join();
    }
    if (crash.get() != null) {
      throw new IllegalStateException("a driver thread failed: " + crash.get(), crash.get());
    }
  }

  private void work(SplittableRandom random, long deadlineNanos, AtomicReference<Throwable> crash) {
    try {
      while (System.nanoTime() < deadlineNanos) {
        operations.runSync(random);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      crash.compareAndSet(null, e);
    }
  }

  @Override
  public void drain() {
    // every operation was answered before its thread went on
  }
}
