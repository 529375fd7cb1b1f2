package org.partita.bench.voter.driver;

import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ProcedureCallback;

/**
 * Asynchronous calls from one thread: as fast as the client's in-flight
 * bound and the server's backpressure let it (firehose), or each call at its
 * own scheduled time (start + n / rate) so that latency is measured under an
 * even load rather than bursts. Answers are counted on the client's I/O
 * threads. Thread model: {@link #run} on one thread at a time.
 */
final class AsyncLoad implements Load {
  private final PartitaClient client;
  private final VoteGenerator generator;
  private final Latencies latencies;
  private final long maxVotes;
  private final long rate;

  AsyncLoad(PartitaClient client, VoteGenerator generator, Latencies latencies, long maxVotes, long rate) {
    this.client = client;
    this.generator = generator;
    this.latencies = latencies;
    this.maxVotes = maxVotes;
    this.rate = rate;
  }

  @Override
  public void run(long endNanos, Outcomes outcomes) throws InterruptedException {
    final Pacer pacer = new Pacer(rate, 0);
    while (System.nanoTime() < endNanos) {
      pacer.awaitNext();
      generator.next();
      final int contestant = generator.contestant();
      client.callAsync(new Answer(contestant, System.nanoTime(), outcomes, latencies), "Vote", generator.phone(),
          contestant, maxVotes);
    }
    client.drain();
  }

  /** Counts one call's answer; runs on an I/O thread (or the calling thread when the call was never sent). */
  private record Answer(int contestant, long startNanos, Outcomes outcomes, Latencies latencies)
      implements ProcedureCallback {
    @Override
    public void onComplete(ClientResponse response, Throwable failure) {
      if (failure != null) {
        outcomes.recordFailure();
        return;
      }
      latencies.record(System.nanoTime() - startNanos);
      if (response.ok()) {
        outcomes.recordAnswer(contestant, response.firstLong());
      } else {
        outcomes.recordFailure();
      }
    }
  }
}
