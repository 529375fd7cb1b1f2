package org.partita.examples.voter;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Logs the firehose's throughput every 5 seconds (calls answered in the
 * last interval, per second) and keeps the last rate for the results page.
 * Thread model: runs on Spring's scheduler; the rate is read by web threads.
 */
@Component
public class ThroughputReporter {
  private static final Logger LOG = LoggerFactory.getLogger(ThroughputReporter.class);
  private static final long INTERVAL_MS = 5000;

  private final VoteTally tally;
  private long lastCalls;
  private long lastNanos = System.nanoTime();
  private volatile double callsPerSecond;

  public ThroughputReporter(VoteTally tally) {
    this.tally = tally;
  }

  @Scheduled(fixedRate = INTERVAL_MS, initialDelay = INTERVAL_MS)
  void report() {
    final long calls = tally.calls();
    final long now = System.nanoTime();
    callsPerSecond = (calls - lastCalls) / ((now - lastNanos) / 1e9);
    lastCalls = calls;
    lastNanos = now;
    LOG.info(String.format("throughput: %,.0f Vote calls/s over the last 5 s; %,d calls, %,d accepted, %,d failed",
        callsPerSecond, calls, tally.acceptedTotal(), tally.failedTotal()));
  }

  /** Calls per second over the last interval (0 before the first). */
  double callsPerSecond() {
    return callsPerSecond;
  }
}
