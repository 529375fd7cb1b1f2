package org.partita.examples.voter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.stereotype.Component;

/**
 * What the firehose saw: votes accepted per contestant and every outcome,
 * as plain counters (for the consistency check) and as Micrometer meters
 * ({@code voter.votes} tagged by outcome, {@code voter.vote.latency}).
 * Thread-safe: the client's I/O threads record, anyone reads.
 */
@Component
public class VoteTally {
  /** Vote's answers (bench/voter procedures): 0 accepted, 1 no such contestant, 2 over the limit. */
  static final long ACCEPTED = 0;
  static final long INVALID_CONTESTANT = 1;
  static final long OVER_LIMIT = 2;

  private final AtomicLongArray acceptedByContestant;
  private final LongAdder calls = new LongAdder();
  private final Counter accepted;
  private final Counter invalid;
  private final Counter overLimit;
  private final Counter failed;
  private final Timer latency;

  public VoteTally(VoterProperties properties, MeterRegistry registry) {
    acceptedByContestant = new AtomicLongArray(properties.contestants() + 2);
    accepted = outcome(registry, "accepted");
    invalid = outcome(registry, "invalid_contestant");
    overLimit = outcome(registry, "over_limit");
    failed = outcome(registry, "failed");
    latency = Timer.builder("voter.vote.latency").description("Vote round trips seen by the firehose")
        .register(registry);
  }

  private static Counter outcome(MeterRegistry registry, String outcome) {
    return Counter.builder("voter.votes").description("Vote calls answered, by outcome").tag("outcome", outcome)
        .register(registry);
  }

  /** Records one answered call to Vote for {@code contestant}: {@code result} is Vote's answer, or -1 if it failed. */
  void record(int contestant, long result, long nanos) {
    calls.increment();
    latency.record(nanos, TimeUnit.NANOSECONDS);
    if (result == ACCEPTED) {
      acceptedByContestant.incrementAndGet(contestant);
      accepted.increment();
    } else if (result == INVALID_CONTESTANT) {
      invalid.increment();
    } else if (result == OVER_LIMIT) {
      overLimit.increment();
    } else {
      failed.increment();
    }
  }

  /** Calls answered so far, whatever the outcome. */
  long calls() {
    return calls.sum();
  }

  long accepted(int contestant) {
    return contestant < acceptedByContestant.length() ? acceptedByContestant.get(contestant) : 0;
  }

  long acceptedTotal() {
    return (long) accepted.count();
  }

  long failedTotal() {
    return (long) failed.count();
  }
}
