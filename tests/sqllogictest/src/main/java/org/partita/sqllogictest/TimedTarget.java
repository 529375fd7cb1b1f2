package org.partita.sqllogictest;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a {@link SqlTarget}'s calls on a worker thread of its own, so that a statement that does not
 * finish cannot stop the run: {@link #execute} waits at most the record time limit, then asks the
 * target to {@link SqlTarget#cancel() cancel} and waits a grace period for it to stop. A target that
 * does not stop is abandoned: its worker (a daemon thread) is left to it, and {@link #close()} only
 * queues the target's close behind the stuck statement.
 *
 * <p>Thread model: one caller thread (the runner's); the worker is private.
 */
final class TimedTarget implements AutoCloseable {

  /** What one timed call came to. */
  sealed interface Outcome {
    /** The target answered within the limit. */
    record Done(StatementResult result) implements Outcome {}

    /** The target threw. */
    record Threw(RuntimeException error) implements Outcome {}

    /** The limit passed; {@code stopped} iff the target then stopped within the grace period. */
    record TimedOut(boolean stopped) implements Outcome {}
  }

  private final SqlTarget target;
  private final Duration limit;
  private final Duration grace;
  private final ExecutorService worker;
  private boolean abandoned;

  /** Drives {@code target} (owned: closed by {@link #close()}) with {@code limit} per call. */
  TimedTarget(SqlTarget target, Duration limit, Duration grace) {
    this.target = target;
    this.limit = limit;
    this.grace = grace;
    this.worker = Executors.newSingleThreadExecutor(r -> {
      final Thread t = new Thread(r, "sqllogictest-target");
      t.setDaemon(true);
      return t;
    });
  }

  /** Whether an earlier call did not stop; the target takes no more calls then. */
  boolean abandoned() {
    return abandoned;
  }

  /** Resets the target (no time limit: opening a database is not a record). */
  void reset() {
    final CompletableFuture<Void> done = CompletableFuture.runAsync(target::reset, worker);
    try {
      done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while resetting the target", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }
  }

  /** Runs {@code sql} within the limit. REQUIRES: not {@link #abandoned()}. */
  Outcome execute(String sql) {
    final CompletableFuture<StatementResult> call =
        CompletableFuture.supplyAsync(() -> target.execute(sql), worker);
    try {
      return new Outcome.Done(call.get(limit.toNanos(), TimeUnit.NANOSECONDS));
    } catch (TimeoutException e) {
      target.cancel();
      final boolean stopped = awaitQuietly(call, grace);
      abandoned = !stopped;
      return new Outcome.TimedOut(stopped);
    } catch (ExecutionException e) {
      return e.getCause() instanceof RuntimeException r ? new Outcome.Threw(r)
          : new Outcome.Threw(new IllegalStateException(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome.Threw(new IllegalStateException("interrupted", e));
    }
  }

  private static boolean awaitQuietly(CompletableFuture<?> call, Duration grace) {
    try {
      call.get(grace.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true;  // it stopped, with an error: what a cancelled statement does
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Closes the target on its worker; waits for that only if the target was not abandoned. */
  @Override
  public void close() {
    final CompletableFuture<Void> closed = CompletableFuture.runAsync(target::close, worker);
    worker.shutdown();
    if (!abandoned) {
      awaitQuietly(closed, Duration.ofDays(1));
    }
  }
}
