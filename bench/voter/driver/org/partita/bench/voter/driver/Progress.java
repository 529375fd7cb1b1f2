package org.partita.bench.voter.driver;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Prints one progress line every display interval: time since the driver
 * started calling, the phase, the interval's answered calls per second and
 * its p50 and p99 latency.
 *
 * <pre>voter:   10.0 s run      201,337 calls/s  p50  1.102 ms  p99  3.211 ms</pre>
 *
 * <p>Thread model: one daemon thread of its own prints; {@link #phase} and
 * {@link #close} from any thread.
 */
final class Progress implements AutoCloseable {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "voter-progress");
    t.setDaemon(true);
    return t;
  });
  private final Latencies latencies;
  private final PrintStream out;
  private final long startNanos = System.nanoTime();
  private volatile String phase = "warm-up";
  private long lastNanos = startNanos;

  Progress(Latencies latencies, PrintStream out, double intervalSeconds) {
    this.latencies = latencies;
    this.out = out;
    final long period = (long) (intervalSeconds * 1e9);
    timer.scheduleAtFixedRate(this::print, period, period, TimeUnit.NANOSECONDS);
  }

  /** Names the phase in the following lines ("warm-up", "run"). */
  void phase(String name) {
    phase = name;
  }

  private void print() {
    final long now = System.nanoTime();
    final Histogram h = latencies.interval();
    final double seconds = (now - lastNanos) / 1e9;
    lastNanos = now;
    out.printf("voter: %7.1f s %-8s %,10.0f calls/s  p50 %7.3f ms  p99 %7.3f ms%n", (now - startNanos) / 1e9, phase,
        h.getTotalCount() / seconds, h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0);
  }

  /** Stops printing; waits for a line being printed. */
  @Override
  public void close() throws InterruptedException {
    timer.shutdown();
    timer.awaitTermination(10, TimeUnit.SECONDS);
  }
}
