package org.partita.bench.kv;

import java.io.PrintStream;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Prints one line per display interval while the load runs: time since the
 * load began, the phase, the interval's throughput and its p50/p99 latency.
 * Thread model: its own daemon thread; the window methods from any thread
 * (synchronized with the printing).
 */
public final class ProgressPrinter implements AutoCloseable {
  private final Measurements measurements;
  private final PrintStream out;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    final Thread t = new Thread(r, "kv-progress");
    t.setDaemon(true);
    return t;
  });
  private final long startNanos = System.nanoTime();
  private volatile String phase = "warmup";
  private long lastNanos = startNanos; // guarded by this

  public ProgressPrinter(Measurements measurements, PrintStream out, double intervalSeconds) {
    this.measurements = measurements;
    this.out = out;
    final long every = (long) (intervalSeconds * 1e9);
    timer.scheduleAtFixedRate(this::print, every, every, TimeUnit.NANOSECONDS);
  }

  /** Prints what completed since the last line, then opens the measured window ({@link Measurements#openWindow}). */
  public synchronized void openWindow() {
    print(measurements.openWindow());
    phase = "measure";
  }

  /** Closes the measured window, prints its last partial interval and returns the window's totals. */
  public synchronized Measurements.WindowStats closeWindow() {
    final Measurements.WindowStats window = measurements.closeWindow();
    print(window.lastInterval());
    phase = "done";
    return window;
  }

  private synchronized void print() {
    if (!phase.equals("done")) {
      print(measurements.interval());
    }
  }

  private void print(Measurements.IntervalStats s) {
    final long now = System.nanoTime();
    final double seconds = Math.max((now - lastNanos) / 1e9, 1e-9);
    lastNanos = now;
    out.printf("kv: %7.1f s %-7s %,11.0f ops/s  p50 %7.3f ms  p99 %7.3f ms  gets %,d puts %,d failed %,d%n",
        (now - startNanos) / 1e9, phase, s.operations() / seconds, s.p50Nanos() / 1e6, s.p99Nanos() / 1e6,
        s.gets(), s.puts(), s.failed());
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
