package org.partita.bench.voter.driver;

import java.util.concurrent.atomic.LongAdder;
import org.partita.bench.voter.Vote;

/**
 * What the Vote calls of one phase (warm-up or measured) came to: accepted
 * votes per contestant, rejections, failures. Thread-safe (LongAdder):
 * callbacks on the client's I/O threads and calling threads record at once.
 */
final class Outcomes {
  private final LongAdder[] acceptedByContestant;
  private final LongAdder overLimit = new LongAdder();
  private final LongAdder invalid = new LongAdder();
  private final LongAdder failed = new LongAdder();

  /** Counters for contestants 1..{@code contestants + 1} (the last is the invalid number the driver sends). */
  Outcomes(int contestants) {
    acceptedByContestant = new LongAdder[contestants + 2];
    for (int i = 0; i < acceptedByContestant.length; i++) {
      acceptedByContestant[i] = new LongAdder();
    }
  }

  /** Vote answered {@code code} for {@code contestant}; a code Vote never returns counts as failed. */
  void recordAnswer(int contestant, long code) {
    if (code == Vote.ACCEPTED) {
      acceptedByContestant[contestant].increment();
    } else if (code == Vote.OVER_VOTE_LIMIT) {
      overLimit.increment();
    } else if (code == Vote.INVALID_CONTESTANT) {
      invalid.increment();
    } else {
      failed.increment();
    }
  }

  /** A non-SUCCESS answer or a client-side failure. */
  void recordFailure() {
    failed.increment();
  }

  long accepted(int contestant) {
    return contestant >= 0 && contestant < acceptedByContestant.length ? acceptedByContestant[contestant].sum() : 0;
  }

  long accepted() {
    long n = 0;
    for (LongAdder a : acceptedByContestant) {
      n += a.sum();
    }
    return n;
  }

  long overLimit() {
    return overLimit.sum();
  }

  long invalid() {
    return invalid.sum();
  }

  long failed() {
    return failed.sum();
  }

  /** Calls that got an answer from Vote (any outcome but failed). */
  long answered() {
    return accepted() + overLimit() + invalid();
  }

  /** The highest contestant number counted. */
  int maxContestant() {
    return acceptedByContestant.length - 1;
  }
}
