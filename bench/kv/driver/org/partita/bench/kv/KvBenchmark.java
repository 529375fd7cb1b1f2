package org.partita.bench.kv;

import java.io.PrintStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.partita.client.ClientConfig;
import org.partita.client.PartitaClient;

/**
 * One driver run: connect, preload, warm up, measure, verify. The phases
 * print what they do on {@code out}. Thread model: one thread runs it; the
 * load may start its own threads, all ended before {@link #run} returns.
 */
public final class KvBenchmark {
  /** Keys whose last write was answered this close to the end are all verified. */
  private static final long RECENT_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final KvSettings settings;
  private final PrintStream out;

  public KvBenchmark(KvSettings settings, PrintStream out) {
    this.settings = settings;
    this.out = out;
  }

  /**
   * Runs the benchmark against the servers.
   *
   * @throws org.partita.client.PartitaClientException when a server cannot be reached
   * @throws IllegalStateException when the preload fails
   */
  public RunResult run() throws InterruptedException {
    final KeySpace keys = new KeySpace(settings.preload(), settings.keySize());
    final ValueFactory values = new ValueFactory(settings.valueSize(), settings.seed());
    final WriteLog writes = new WriteLog(keys.count());
    final AtomicLong sequence = new AtomicLong();
    try (PartitaClient client = new PartitaClient(clientConfig())) {
      for (String server : settings.servers()) {
        client.connect(server);
      }
      out.printf("kv: connected to %s; preloading %,d keys%n", String.join(",", settings.servers()), keys.count());
      new Preloader(client, keys, values, writes, sequence).run(out, settings.displaySeconds());
      final Measurements measurements = new Measurements();
      final KvOperations operations = new KvOperations(client, keys, KeyChooser.of(settings.keys(), keys.count()),
          values, writes, measurements, settings.getRatio(), sequence);
      final Measurements.WindowStats window = load(client, operations, measurements);
      final long end = System.nanoTime();
      out.printf("kv: verifying a sample of %,d keys and every key written in the last second%n",
          Math.min(settings.verifySample(), keys.count()));
      final Verifier.Result verification = new Verifier(client, keys, values, writes)
          .verify(settings.verifySample(), end - RECENT_NANOS, settings.seed());
      return new RunResult(settings, window, verification, operations.firstFailure());
    }
  }

  private ClientConfig clientConfig() {
    final ClientConfig.Builder b = ClientConfig.builder().clientName("kv-driver");
    if (settings.mode() == KvSettings.Mode.SYNC && settings.rateLimit() > 0) {
      b.rateLimitPerSecond(settings.rateLimit());
    }
    return b.build();
  }

  private Measurements.WindowStats load(PartitaClient client, KvOperations operations, Measurements measurements)
      throws InterruptedException {
    final Load load = settings.mode() == KvSettings.Mode.ASYNC
        ? new AsyncLoad(client, operations, settings.rateLimit(), settings.seed())
        : new SyncLoad(operations, settings.threads(), settings.seed());
    out.printf("kv: %s%s, %.0f%% gets, %s keys, %.1f s warm-up then %.1f s measured%n", settings.modeName(),
        settings.mode() == KvSettings.Mode.SYNC ? " with " + settings.threads() + " threads" : "",
        settings.getRatio() * 100, settings.keysName(), settings.warmupSeconds(), settings.durationSeconds());
    final Measurements.WindowStats window;
    try (ProgressPrinter progress = new ProgressPrinter(measurements, out, settings.displaySeconds())) {
      if (settings.warmupSeconds() > 0) {
        load.runUntil(System.nanoTime() + (long) (settings.warmupSeconds() * 1e9));
      }
      progress.openWindow();
      load.runUntil(System.nanoTime() + (long) (settings.durationSeconds() * 1e9));
      window = progress.closeWindow();
    }
    load.drain();
    return window;
  }
}
