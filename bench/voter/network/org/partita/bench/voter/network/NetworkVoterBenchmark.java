package org.partita.bench.voter.network;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.partita.bench.voter.AreaCodes;
import org.partita.client.CallStatistics;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ProcedureCallback;
import org.partita.client.ResultTable;

/**
 * The Voter {@code Vote} procedure over the network with the Java client:
 * asynchronous calls from one thread, either as fast as the server takes
 * them (firehose; the client's in-flight bound and the server's
 * backpressure pace it) or at a fixed rate, each call sent at its own
 * scheduled time (start + n / rate) so that latency is measured under an
 * even load rather than bursts. Prints throughput and latency after a
 * warm-up.
 *
 * <p>Usage: {@code NetworkVoterBenchmark host:port [seconds] [rate]}; rate 0
 * (the default) is the firehose. The server must run the Voter schema
 * (bench/voter/ddl.sql); this program calls Initialize first.
 */
public final class NetworkVoterBenchmark {
  private static final int CONTESTANTS = 6;
  private static final long MAX_VOTES = 2;
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,"
      + "Alana Bregman,Jessie Eichman";

  private final PartitaClient client;
  private final SplittableRandom random = new SplittableRandom(42);
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong[] outcomes = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
  private final ProcedureCallback counter = (response, failure) -> {
    if (failure != null || !response.ok()) {
      failures.incrementAndGet();
      return;
    }
    final long code = response.firstLong();
    outcomes[(int) Math.min(Math.max(code, 0), 2)].incrementAndGet();
  };

  private final long rate;

  private NetworkVoterBenchmark(PartitaClient client, long rate) {
    this.client = client;
    this.rate = rate;
  }

  public static void main(String[] args) throws Exception {
    final String server = args.length > 0 ? args[0] : "127.0.0.1:21212";
    final double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 20;
    final long rate = args.length > 2 ? Long.parseLong(args[2]) : 0;
    final ClientConfig config = ClientConfig.builder().clientName("voter-benchmark")
        .maxInFlightPerConnection(4096).build();
    try (PartitaClient client = new PartitaClient(config)) {
      client.connect(server);
      client.call("Initialize", CONTESTANTS, NAMES);
      final NetworkVoterBenchmark bench = new NetworkVoterBenchmark(client, rate);
      final String mode = rate == 0 ? "async firehose" : "fixed rate " + rate + "/s";
      System.out.printf("voter: %s against %s, warm-up %.0f s then %.0f s measured%n", mode, server,
          seconds / 4, seconds);
      bench.run(seconds / 4);
      client.drain();
      client.statistics().snapshotAndReset();
      final long start = System.nanoTime();
      bench.run(seconds);
      client.drain();
      final double elapsed = (System.nanoTime() - start) / 1e9;
      final CallStatistics vote = client.statistics().snapshotAndReset().procedure("Vote");
      System.out.printf("voter: %,d Vote in %.1f s = %,.0f TPS; latency µs mean %.0f p50 %d p95 %d p99 %d"
          + " p99.9 %d max %d; failures %d%n", vote.calls(), elapsed, vote.calls() / elapsed,
          vote.latency().meanMicros(), vote.latency().p50Micros(), vote.latency().p95Micros(),
          vote.latency().p99Micros(), vote.latency().p999Micros(), vote.latency().maxMicros(),
          bench.failures.get());
      System.out.printf("voter: outcomes since start: accepted %,d, invalid contestant %,d, over the vote limit %,d%n",
          bench.outcomes[0].get(), bench.outcomes[1].get(), bench.outcomes[2].get());
      final ClientResponse results = client.call("Results");
      final ResultTable standings = results.results().get(0);
      System.out.println("voter: standings\n" + standings);
      if (bench.failures.get() > 0) {
        System.exit(1);
      }
    }
  }

  /** Calls Vote asynchronously for {@code seconds}, as fast as possible or at {@code rate} per second. */
  private void run(double seconds) {
    final long start = System.nanoTime();
    final long end = start + (long) (seconds * 1e9);
    final double interval = rate == 0 ? 0 : 1e9 / rate;
    for (long n = 0; ; n++) {
      final long now = System.nanoTime();
      if (now >= end) {
        return;
      }
      if (rate > 0) {
        awaitNanoTime(start + (long) (n * interval));
      }
      client.callAsync(counter, "Vote", nextPhoneNumber(), nextContestant(), MAX_VOTES);
    }
  }

  /**
   * Parks until {@code due}. The kernel wakes the thread some tens of µs
   * late, so calls go out in small groups of those that fell due meanwhile;
   * spinning instead would take a core from the server on a small machine.
   */
  private static void awaitNanoTime(long due) {
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }

  /** A random known area code × 10^7 + 7 random digits: almost every phone is new, so most votes are accepted. */
  private long nextPhoneNumber() {
    final long areaCode = AreaCodes.CODES[random.nextInt(AreaCodes.CODES.length)];
    return areaCode * 10_000_000L + random.nextInt(10_000_000);
  }

  /** Contestants 1..6, and 1 in 100 votes for a contestant that does not exist (7). */
  private int nextContestant() {
    return random.nextInt(100) == 0 ? CONTESTANTS + 1 : 1 + random.nextInt(CONTESTANTS);
  }
}
