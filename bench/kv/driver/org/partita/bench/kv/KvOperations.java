package org.partita.bench.kv;

import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ProcedureCallback;
import org.partita.proto.ErrorCode;

/**
 * The measured operations: a Get of a chosen key with probability
 * {@code getRatio}, otherwise a Put of a new value (the next write sequence
 * number) to a chosen key. Each answer is counted in the {@link
 * Measurements}; each put's outcome is recorded in the {@link WriteLog}.
 *
 * <p>Thread model: thread-safe; {@link #issueAsync} and {@link #runSync} may
 * be called from any number of threads, each with its own random generator.
 */
public final class KvOperations {
  public static final String GET = "Get";
  public static final String PUT = "Put";

  private final PartitaClient client;
  private final KeySpace keys;
  private final KeyChooser chooser;
  private final ValueFactory values;
  private final WriteLog writes;
  private final Measurements measurements;
  private final double getRatio;
  private final AtomicLong sequence;
  private final AtomicReference<String> firstFailure = new AtomicReference<>();

  /** {@code sequence} hands out write sequence numbers (shared with the preload). */
  public KvOperations(PartitaClient client, KeySpace keys, KeyChooser chooser, ValueFactory values, WriteLog writes,
      Measurements measurements, double getRatio, AtomicLong sequence) {
    this.client = client;
    this.keys = keys;
    this.chooser = chooser;
    this.values = values;
    this.writes = writes;
    this.measurements = measurements;
    this.getRatio = getRatio;
    this.sequence = sequence;
  }

  /**
   * Sends one operation; its answer is counted on a client thread. Latency is
   * measured from {@code startNanos} (its scheduled time when paced, else now).
   * May block while the client has no room for another call in flight.
   */
  public void issueAsync(SplittableRandom random, long startNanos) {
    final Call call = next(random, startNanos);
    client.callAsync(call, call.procedure(), call.parameters());
  }

  /** Runs one operation and counts its answer on this thread. */
  public void runSync(SplittableRandom random) throws InterruptedException {
    final Call call = next(random, System.nanoTime());
    final CompletableFuture<ClientResponse> answer = client.callAsync(call.procedure(), call.parameters());
    try {
      call.onComplete(answer.get(), null);
    } catch (ExecutionException e) {
      call.onComplete(null, e.getCause());
    }
  }

  /** The first failure seen ("Put: GRACEFUL_FAILURE VALUE_TOO_LONG ..."), or null. */
  public String firstFailure() {
    return firstFailure.get();
  }

  private Call next(SplittableRandom random, long startNanos) {
    final int key = chooser.next(random);
    if (random.nextDouble() < getRatio) {
      return new Call(key, -1, startNanos, null);
    }
    final long seq = sequence.incrementAndGet();
    return new Call(key, seq, startNanos, values.value(seq));
  }

  private void noteFailure(String procedure, ClientResponse response, Throwable failure) {
    if (firstFailure.get() == null) {
      firstFailure.compareAndSet(null, procedure + ": " + (failure != null ? failure.toString()
          : response.status() + " " + response.errorName() + " " + response.message()));
    }
  }

  /** One operation in flight: a Get when {@code value} is null, else a Put of write {@code sequence}. */
  private final class Call implements ProcedureCallback {
    private final int key;
    private final long sequence;
    private final long startNanos;
    private final long sentNanos = System.nanoTime();
    private final byte[] value;

    Call(int key, long sequence, long startNanos, byte[] value) {
      this.key = key;
      this.sequence = sequence;
      this.startNanos = startNanos;
      this.value = value;
    }

    String procedure() {
      return value == null ? GET : PUT;
    }

    Object[] parameters() {
      return value == null ? new Object[] {keys.key(key)} : new Object[] {keys.key(key), value};
    }

    @Override
    public void onComplete(ClientResponse response, Throwable failure) {
      final long now = System.nanoTime();
      if (failure != null || !response.ok()) {
        measurements.recordFailure();
        noteFailure(procedure(), response, failure);
        if (value != null && (failure != null || response.errorCode() == ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN)) {
          // The server may have run it (a lost connection, a timeout, OUTCOME_UNKNOWN); other failures rolled back.
          writes.outcomeUnknown(key);
        }
        return;
      }
      if (value == null) {
        measurements.recordGet(now - startNanos, response.results().get(0).rowCount() > 0);
      } else {
        writes.acknowledged(key, sequence, sentNanos, now);
        measurements.recordPut(now - startNanos);
      }
    }
  }
}
