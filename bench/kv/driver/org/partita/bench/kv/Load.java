package org.partita.bench.kv;

/** Generates operations until a deadline; one run per phase (warm-up, measured). */
public interface Load {
  /** Issues operations until System.nanoTime() reaches {@code deadlineNanos}, then returns. */
  void runUntil(long deadlineNanos) throws InterruptedException;

  /** Waits until every operation issued has been answered. */
  void drain() throws InterruptedException;
}
