package org.partita.examples.voter;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.partita.client.PartitaClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * One run of the application: when the context starts, loads the
 * contestants (Initialize), notes the standings, and lets the firehose
 * vote; when it stops (or {@link #finish} is called), stops the firehose,
 * waits for every answer, reads the standings again and checks that what
 * Results gained is exactly what the firehose saw accepted. Prints the
 * final line and writes the summary to voter.result-file.
 *
 * <p>Thread model: start and finish may come from different threads;
 * finish is synchronized and runs once.
 */
@Component
public class VoterRun implements SmartLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(VoterRun.class);

  private final PartitaClient client;
  private final VoteFirehose firehose;
  private final VoteTally tally;
  private final ResultsRepository results;
  private final VoterProperties properties;
  private final ObjectMapper json;
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile Standings before;
  private volatile long startNanos;
  private volatile boolean running;
  private volatile RunSummary summary;

  public VoterRun(PartitaClient client, VoteFirehose firehose, VoteTally tally, ResultsRepository results,
      VoterProperties properties, ObjectMapper json) {
    this.client = client;
    this.firehose = firehose;
    this.tally = tally;
    this.results = results;
    this.properties = properties;
    this.json = json;
  }

  @Override
  public void start() {
    client.call("Initialize", properties.contestants(), VoterProperties.NAMES);
    before = results.standings();
    startNanos = System.nanoTime();
    running = true;
    firehose.start();
    LOG.info("voting through {} with {} contestants, at most {} votes per phone", client.connectedServers(),
        properties.contestants(), properties.maxVotes());
  }

  @Override
  public void stop() {
    finish();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Waits until {@code seconds} have passed since the start, or the run finished. */
  void awaitEnd(long seconds) throws InterruptedException {
    final long left = startNanos + TimeUnit.SECONDS.toNanos(seconds) - System.nanoTime();
    finished.await(Math.max(0, left), TimeUnit.NANOSECONDS);
  }

  /** Stops voting and checks the tally against Results; the summary (the same one if called again). */
  public synchronized RunSummary finish() {
    if (summary != null || !running) {
      return summary;
    }
    firehose.stop();
    final double seconds = (System.nanoTime() - startNanos) / 1e9;
    try {
      client.drain();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    summary = check(seconds, results.standings());
    running = false;
    System.out.println(summary.finalLine());
    summary.lines().forEach(line -> System.out.println("  " + line));
    writeResultFile();
    finished.countDown();
    return summary;
  }

  /** The summary of the run so far; null while it runs. */
  public RunSummary summary() {
    return summary;
  }

  private RunSummary check(double seconds, Standings after) {
    final List<String> lines = new ArrayList<>();
    boolean ok = tally.failedTotal() == 0;
    for (int c = 1; c <= properties.contestants(); c++) {
      final long counted = tally.accepted(c);
      final long gained = after.votes(c) - before.votes(c);
      ok &= counted == gained;
      lines.add(line("contestant " + c, counted, gained));
    }
    final long gained = after.total() - before.total();
    ok &= tally.acceptedTotal() == gained;
    lines.add(line("all contestants", tally.acceptedTotal(), gained));
    return new RunSummary(seconds, tally.calls(), tally.calls() / Math.max(seconds, 1e-9), tally.acceptedTotal(),
        tally.failedTotal(), ok, lines);
  }

  private static String line(String what, long counted, long gained) {
    return String.format("%-16s firehose %,12d  Results %,12d%s", what, counted, gained,
        counted == gained ? "" : "  <-- differs");
  }

  private void writeResultFile() {
    if (properties.resultFile().isEmpty()) {
      return;
    }
    try {
      json.writerWithDefaultPrettyPrinter().writeValue(Path.of(properties.resultFile()).toFile(), summary);
    } catch (IOException e) {
      LOG.error("cannot write the summary to {}", properties.resultFile(), e);
    }
  }
}
