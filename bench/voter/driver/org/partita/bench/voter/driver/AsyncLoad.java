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
  /** How many unpaced calls go out between two reads of the clock for the end. */
  private static final long CALLS_PER_END_CHECK = 64;

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
    // Unpaced, the clock is read for the end only once per CALLS_PER_END_CHECK calls; the client times each call.
    for (long n = 0; (n % CALLS_PER_END_CHECK != 0 && rate == 0) || System.nanoTime() < endNanos; n++) {
      pacer.awaitNext();
      generator.next();
      final int contestant = generator.contestant();
      client.callAsync(new Answer(contestant, outcomes, latencies), "Vote", generator.phone(), contestant, maxVotes);
    }
    client.drain();
  }

  /** Counts one call's answer; runs on an I/O thread (or the calling thread when the call was never sent). */
  private record Answer(int contestant, Outcomes outcomes, Latencies latencies) implements ProcedureCallback {
    @Override
    public void onComplete(ClientResponse response, Throwable failure) {
      onComplete(response, failure, 0);
    }

    @Override
    public void onComplete(ClientResponse response, Throwable failure, long roundTripNanos) {
      if (failure != null) {
        outcomes.recordFailure();
        return;
      }
      latencies.record(roundTripNanos);
      if (response.ok()) {
        outcomes.recordAnswer(contestant, response.firstLong());
      } else {
        outcomes.recordFailure();
      }
    }
  }
}
