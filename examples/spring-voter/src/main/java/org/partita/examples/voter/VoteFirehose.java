package org.partita.examples.voter;

import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantLock;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The firehose: a scheduled task that, while the run is voting, sends
 * {@code voter.burst} Vote calls per tick through the asynchronous client
 * and ticks again at once. The client bounds the calls in flight: a call
 * waits for a free slot, which paces the firehose to the server. Callers:
 * area codes of {@link #AREA_CODES}, a random 7-digit number, a contestant
 * skewed towards low numbers, and one call in 100 for a contestant that
 * does not exist.
 *
 * <p>Thread model: ticks run on Spring's scheduler thread, one at a time;
 * answers are recorded on the client's I/O threads.
 */
@Component
public class VoteFirehose {
  private static final Logger LOG = LoggerFactory.getLogger(VoteFirehose.class);
  /** Area codes of the callers (all in the Voter schema's area-code table). */
  static final short[] AREA_CODES = {617, 212, 415, 312, 305, 206, 512, 303, 404, 702, 215, 612};
  private static final long AREA_CODE_MULTIPLIER = 10_000_000L;
  private static final int INVALID_ONE_IN = 100;

  private final PartitaClient client;
  private final VoteTally tally;
  private final VoterProperties properties;
  private final SplittableRandom random = new SplittableRandom(20_261_124L);
  private final ReentrantLock ticking = new ReentrantLock();
  private volatile boolean voting;
  private volatile boolean loggedFailure;

  public VoteFirehose(PartitaClient client, VoteTally tally, VoterProperties properties) {
    this.client = client;
    this.tally = tally;
    this.properties = properties;
  }

  void start() {
    voting = true;
  }

  /** Stops voting and returns once no tick is sending (answers may still be on their way: drain the client). */
  void stop() {
    voting = false;
    ticking.lock();
    ticking.unlock();
  }

  @Scheduled(fixedDelay = 1)
  void tick() {
    ticking.lock();
    try {
      for (int i = 0; i < properties.burst() && voting; i++) {
        vote();
      }
    } finally {
      ticking.unlock();
    }
  }

  private void vote() {
    final long phone = AREA_CODES[random.nextInt(AREA_CODES.length)] * AREA_CODE_MULTIPLIER
        + random.nextInt((int) AREA_CODE_MULTIPLIER);
    final int contestant = random.nextInt(INVALID_ONE_IN) == 0 ? properties.contestants() + 1 : contestant();
    final long sent = System.nanoTime();
    client.callAsync((response, failure) -> answered(contestant, response, failure, System.nanoTime() - sent),
        "Vote", phone, contestant, properties.maxVotes());
  }

  private void answered(int contestant, ClientResponse response, Throwable failure, long nanos) {
    if (failure == null && response.ok()) {
      tally.record(contestant, response.firstLong(), nanos);
      return;
    }
    tally.record(contestant, -1, nanos);
    if (!loggedFailure) {
      loggedFailure = true;
      LOG.warn("a Vote call failed (later failures are counted, not logged): {}",
          failure != null ? failure.toString() : response.toString());
    }
  }

  /** A contestant from 1: the smaller of two uniform draws, so lower numbers get more votes. */
  private int contestant() {
    final int n = properties.contestants();
    return 1 + Math.min(random.nextInt(n), random.nextInt(n));
  }
}
