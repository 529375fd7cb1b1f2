package org.partita.fault;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * One logical client: its own connection to every host, one operation at a
 * time, each recorded in the history before it is sent and when it
 * completes (Outcomes decides ok / fail / info). After an info completion
 * the operation may still take effect at any time, so the worker goes on as
 * a new process (its number plus the number of workers), as Jepsen does.
 * Runs on its own thread until the deadline; owns its client.
 */
final class Worker implements Runnable {
  /** How long a call may wait for its answer before it is recorded as info. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(2);
  /** The pause after a call that was not sent (no connection), so a worker does not spin while a host is down. */
  static final long NOT_SENT_PAUSE_MILLIS = 50;

  private final int workers;
  private final Workload workload;
  private final History history;
  private final List<String> addresses;
  private final Random random;
  private final long deadline;
  private final List<Operation> acknowledged = new CopyOnWriteArrayList<>();
  private final List<Operation> failedWrites = new CopyOnWriteArrayList<>();
  private int process;

  Worker(int process, int workers, Workload workload, History history, List<String> addresses, long seed,
      long deadlineNanos) {
    this.process = process;
    this.workers = workers;
    this.workload = workload;
    this.history = history;
    this.addresses = addresses;
    this.random = new Random(seed);
    this.deadline = deadlineNanos;
  }

  /** Writes this worker saw acknowledged (that took effect by their answer). */
  List<Operation> acknowledgedWrites() {
    return acknowledged;
  }

  /** Writes this worker saw fail (they must not have taken effect). */
  List<Operation> failedWrites() {
    return failedWrites;
  }

  /** A client for the run: short reconnection backoff so it measures the server's availability, not its own. */
  static PartitaClient connect(String name, List<String> addresses) {
    return connect(name, addresses, CALL_TIMEOUT);
  }

  /** {@link #connect(String, List)} with calls timing out after {@code callTimeout}. */
  static PartitaClient connect(String name, List<String> addresses, Duration callTimeout) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName(name)
        .callTimeout(callTimeout).connectTimeout(Duration.ofSeconds(5)).backpressureTimeout(Duration.ZERO)
        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(500)).build());
    for (String address : addresses) {
      client.connect(address);
    }
    return client;
  }

  @Override
  public void run() {
    try (PartitaClient client = connect("fault-worker-" + process, addresses)) {
      while (history.now() < deadline) {
        if (!step(client)) {
          TimeUnit.MILLISECONDS.sleep(NOT_SENT_PAUSE_MILLIS);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One operation, recorded; false when it was not sent (the worker should pause). */
  private boolean step(PartitaClient client) throws InterruptedException {
    final Operation op = workload.next(random, history.now());
    history.invoke(process, op.f(), op.key(), op.value());
    ClientResponse response = null;
    Throwable failure = null;
    try {
      response = client.callAsync(CALL_TIMEOUT, op.procedure(), op.parameters()).get();
    } catch (java.util.concurrent.ExecutionException e) {
      failure = e;
    } catch (RuntimeException e) {
      failure = e;
    }
    if (response != null && response.ok()) {
      final String completion = op.result().apply(response);
      history.complete(process, Outcome.OK, op.f(), op.key(), completion, null);
      workload.observed(op, completion);
      if (op.tookEffect(completion)) {
        acknowledged.add(op);
      }
      return true;
    }
    final Outcome outcome = response != null ? Outcomes.of(response) : Outcomes.of(failure);
    final String error = response != null ? response.status() + " " + response.errorName() + ": "
        + response.message() : Outcomes.describe(failure);
    history.complete(process, outcome, op.f(), op.key(), null, error);
    if (outcome == Outcome.FAIL && op.isWrite()) {
      failedWrites.add(op);
    }
    if (outcome == Outcome.INFO) {
      process += workers;
    }
    return response != null || outcome != Outcome.FAIL;
  }
}
