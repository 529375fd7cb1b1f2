package org.partita.bench.voter.driver;

/** A way of sending Vote calls: the async single-thread pump or the synchronous thread pool. */
interface Load {
  /**
   * Calls Vote until {@code endNanos} (System.nanoTime), counting outcomes
   * into {@code outcomes} and latencies into the load's {@link Latencies};
   * returns once every call it made has been answered or has failed.
   */
  void run(long endNanos, Outcomes outcomes) throws InterruptedException;
}
