package org.partita.bench.kv;

import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;
import org.partita.client.PartitaClient;

/**
 * Asynchronous calls from the calling thread: as fast as the client's
 * in-flight bound lets them out (firehose, rate 0), or paced at a fixed rate,
 * call n sent at {@code start + n / rate} and its latency measured from that
 * scheduled time, so that a stall of the driver counts against latency
 * rather than hiding it. Thread model: one thread runs it.
 */
public final class AsyncLoad implements Load {
  private final PartitaClient client;
  private final KvOperations operations;
  private final long rate;
  private final SplittableRandom random;

  public AsyncLoad(PartitaClient client, KvOperations operations, long rate, long seed) {
    this.client = client;
    this.operations = operations;
    this.rate = rate;
    this.random = new SplittableRandom(seed);
  }

  @Override
  public void runUntil(long deadlineNanos) {
    final long start = System.nanoTime();
    final double interval = rate == 0 ? 0 : 1e9 / rate;
    for (long n = 0; ; n++) {
      final long due = start + (long) (n * interval);
      if (rate > 0) {
        awaitNanoTime(Math.min(due, deadlineNanos));
      }
      final long now = System.nanoTime();
      if (now >= deadlineNanos) {
        return;
      }
      operations.issueAsync(random, rate > 0 ? due : now);
    }
  }

  @Override
  public void drain() throws InterruptedException {
    client.drain();
  }

  /**
   * Parks until {@code due}. The kernel wakes the thread some tens of µs late,
   * so calls go out in small groups of those that fell due meanwhile;
   * spinning instead would take a core from the server on a small machine.
   */
  private static void awaitNanoTime(long due) {
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }
}
