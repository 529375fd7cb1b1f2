package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.CallStatistics;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * A client firehosing 20,000 asynchronous votes at a server that dispatches
 * at most 8 calls per connection with site queues of 64: the server pushes
 * back by pausing reads, yet every call is answered, none is lost, the heap
 * stays bounded, and a second client is served meanwhile. Whether and when
 * reads pause is recorded, not asserted. The firehose runs once, in
 * {@code @BeforeAll}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class BackpressureTest {
  private static final int CALLS = 20_000;
  private static final long PHONES = 6_170_000_000L;

  private static ServerProcess server;
  private static PartitaClient firehose;
  private static PartitaClient monitor;
  private static final LongAdder accepted = new LongAdder();
  private static final LongAdder otherOutcomes = new LongAdder();
  private static final AtomicLong samplesDuringTheFirehose = new AtomicLong();
  private static final AtomicLong samplesWithReadsPaused = new AtomicLong();
  private static final AtomicLong mostUnansweredSeen = new AtomicLong();

  @BeforeAll
  static void startAndFirehose() throws Exception {
    server = ServerProcess.voter(2, "--max-in-flight", "8", "--site-queue", "64");
    firehose = Clients.connect(server, ClientConfig.builder().clientName("firehose")
        .maxInFlightPerConnection(CALLS * 2).callTimeout(Duration.ofSeconds(120)).build());
    monitor = Clients.connect(server, "monitor");
    monitor.call("Initialize", 6, "A,B,C,D,E,F");
    for (int i = 0; i < CALLS; i++) {
      firehose.callAsync((response, failure) -> {
        if (failure == null && response.ok() && response.firstLong() == 0) {
          accepted.increment();
        } else {
          otherOutcomes.increment();
        }
      }, "Vote", PHONES + i, 1 + i % 6, 1L);
    }
    while (accepted.sum() + otherOutcomes.sum() < CALLS) {
      sampleConnections();
      Thread.sleep(5);
    }
    firehose.drain();
  }

  @AfterAll
  static void stop() throws Exception {
    if (firehose != null) {
      firehose.close();
    }
    if (monitor != null) {
      monitor.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Records what @Statistics CONNECTIONS says about the firehose connection. */
  private static void sampleConnections() {
    final ResultTable connections = monitor.call("@Statistics", "CONNECTIONS").results().get(0);
    while (connections.advanceRow()) {
      if (connections.getString("CLIENT_NAME").equals("firehose")) {
        samplesDuringTheFirehose.incrementAndGet();
        if (connections.getLong("READS_PAUSED") == 1) {
          samplesWithReadsPaused.incrementAndGet();
        }
        mostUnansweredSeen.accumulateAndGet(connections.getLong("CALLS_IN_FLIGHT"), Math::max);
      }
    }
  }

  @Test
  void everyCallIsAnsweredAndAccepted() {
    assertEquals(0, otherOutcomes.sum());
    assertEquals(CALLS, accepted.sum());
    final CallStatistics votes = firehose.statistics().snapshot().procedure("Vote");
    assertEquals(CALLS, votes.successes(), votes.toString());
    assertEquals(0, votes.timeouts() + votes.connectionLosses() + votes.rejectedByClient(), votes.toString());
  }

  @Test
  void noVoteIsLostOrDoubled() {
    assertEquals(CALLS, Clients.queryLong(monitor, "SELECT COUNT(*) FROM votes"));
    assertEquals(CALLS, Clients.queryLong(monitor, "SELECT COUNT(*) FROM v_votes_by_phone_number"));
    assertEquals(1, Clients.queryLong(monitor, "SELECT MAX(num_votes) FROM v_votes_by_phone_number"));
  }

  @Test
  void anotherClientIsServedDuringTheFirehose() {
    assertTrue(samplesDuringTheFirehose.get() > 0, "the monitor's calls must be answered while the firehose runs");
  }

  @Test
  void theServerUsesTheConfiguredQueuesAndBoundedMemory() {
    final ResultTable partitions = monitor.call("@Statistics", "PARTITION").results().get(0);
    while (partitions.advanceRow()) {
      if (partitions.getLong("PARTITION_ID") >= 0) {
        assertEquals(64, partitions.getLong("QUEUE_CAPACITY"));
      }
      assertEquals(0, partitions.getLong("QUEUE_DEPTH"));
    }
    final ResultTable memory = monitor.call("@Statistics", "MEMORY").results().get(0);
    assertTrue(memory.advanceRow());
    final long heapMax = memory.getLong("HEAP_MAX");
    assertTrue(heapMax > 0 && memory.getLong("HEAP_USED") < heapMax * 3 / 4,
        "heap used " + memory.getLong("HEAP_USED") + " of " + heapMax);
    assertTrue(server.isAlive());
    System.out.printf("backpressure: %d of %d samples saw reads paused; most calls unanswered at once: %d%n",
        samplesWithReadsPaused.get(), samplesDuringTheFirehose.get(), mostUnansweredSeen.get());
  }
}
