package org.partita.bench.voter.driver;

import java.util.ArrayList;
import java.util.List;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import org.partita.client.ProcedureCallException;

/**
 * Synchronous calls from {@code threads} threads, each waiting for its
 * answer before the next call: the closed-loop load of many independent
 * callers. With a rate, each thread paces itself to rate / threads calls per
 * second, the threads' schedules staggered by 1 / rate. Thread model:
 * {@link #run} on one thread at a time; it starts and joins its workers.
 */
final class SyncLoad implements Load {
  private final PartitaClient client;
  private final VoteGenerator generator;
  private final Latencies latencies;
  private final long maxVotes;
  private final long rate;
  private final int threads;

  SyncLoad(PartitaClient client, VoteGenerator generator, Latencies latencies, long maxVotes, long rate,
      int threads) {
    this.client = client;
    this.generator = generator;
    this.latencies = latencies;
    this.maxVotes = maxVotes;
    this.rate = rate;
    this.threads = threads;
  }

  @Override
  public void run(long endNanos, Outcomes outcomes) throws InterruptedException {
    final List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final VoteGenerator own = generator.split();
      final Pacer pacer = new Pacer((double) rate / threads, rate > 0 ? (long) (t * 1e9 / rate) : 0);
      final Thread worker = new Thread(() -> callUntil(endNanos, own, pacer, outcomes), "voter-sync-" + t);
      worker.setDaemon(true);
      workers.add(worker);
      worker.start();
    }
    for (Thread worker : workers) {
      worker.join();
    }
  }

  private void callUntil(long endNanos, VoteGenerator own, Pacer pacer, Outcomes outcomes) {
    while (System.nanoTime() < endNanos) {
      pacer.awaitNext();
      own.next();
      final long start = System.nanoTime();
      try {
        final long code = client.call("Vote", own.phone(), own.contestant(), maxVotes).firstLong();
        latencies.record(System.nanoTime() - start);
        outcomes.recordAnswer(own.contestant(), code);
      } catch (ProcedureCallException e) {
        latencies.record(System.nanoTime() - start);
        outcomes.recordFailure();
      } catch (PartitaClientException e) {
        outcomes.recordFailure();
      }
    }
  }
}
