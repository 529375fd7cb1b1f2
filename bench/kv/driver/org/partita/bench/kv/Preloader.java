package org.partita.bench.kv;

import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.partita.client.PartitaClient;

/**
 * Writes every key of the key space once, asynchronously (as fast as the
 * client's in-flight bound allows), printing progress every display
 * interval. Each acknowledged put is recorded in the {@link WriteLog}, so
 * keys never written during the run are verified against their preloaded
 * value. Thread model: one thread runs it.
 */
public final class Preloader {
  private final PartitaClient client;
  private final KeySpace keys;
  private final ValueFactory values;
  private final WriteLog writes;
  private final AtomicLong sequence;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicReference<String> firstFailure = new AtomicReference<>();

  public Preloader(PartitaClient client, KeySpace keys, ValueFactory values, WriteLog writes, AtomicLong sequence) {
    this.client = client;
    this.keys = keys;
    this.values = values;
    this.writes = writes;
    this.sequence = sequence;
  }

  /**
   * Writes keys 0 .. count-1 and waits for every answer.
   *
   * @throws IllegalStateException when a put failed (the message says how many and the first reason)
   */
  public void run(PrintStream out, double displaySeconds) throws InterruptedException {
    final long start = System.nanoTime();
    final long every = (long) (displaySeconds * 1e9);
    long nextReport = start + every;
    for (int key = 0; key < keys.count(); key++) {
      put(key);
      if (System.nanoTime() >= nextReport) {
        progress(out, start);
        nextReport += every;
      }
    }
    client.drain();
    final double seconds = (System.nanoTime() - start) / 1e9;
    out.printf("kv: preloaded %,d keys of %,d bytes in %.1f s (%,.0f puts/s)%n", done.get(), values.size(),
        seconds, done.get() / Math.max(seconds, 1e-9));
    if (failed.get() > 0) {
      throw new IllegalStateException(failed.get() + " preload put(s) failed; first: " + firstFailure.get());
    }
  }

  private void put(int key) {
    final long seq = sequence.incrementAndGet();
    final long sent = System.nanoTime();
    client.callAsync((response, failure) -> {
      if (failure == null && response.ok()) {
        writes.acknowledged(key, seq, sent, System.nanoTime());
        done.incrementAndGet();
        return;
      }
      if (failure != null) {
        writes.outcomeUnknown(key);
      }
      failed.incrementAndGet();
      firstFailure.compareAndSet(null, failure != null ? failure.toString()
          : response.status() + " " + response.errorName() + " " + response.message());
    }, KvOperations.PUT, keys.key(key), values.value(seq));
  }

  private void progress(PrintStream out, long start) {
    final long n = done.get();
    out.printf("kv: preload %,d / %,d keys (%.0f%%), %.1f s%n", n, keys.count(), 100.0 * n / keys.count(),
        (System.nanoTime() - start) / 1e9);
  }
}
