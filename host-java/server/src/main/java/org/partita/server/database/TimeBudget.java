package org.partita.server.database;

import org.partita.proto.ErrorCode;
import org.partita.server.engine.EngineException;
import org.partita.server.error.ServerException;

/**
 * The time limit of one running transaction (docs/sql.md, "Bounds on one
 * statement"): the clock starts when its partition (or the coordinator)
 * starts running it, and every engine batch it sends gets what is left. A
 * transaction past its limit fails with TRANSACTION_TIMEOUT naming the time
 * it ran and its limit, whether the engine stopped a batch or the limit ran
 * out between batches (a procedure's Java code counts too). Confined to the
 * thread running the transaction. Immutable, except a {@link #reusable}
 * budget, which its thread restarts for each transaction it runs.
 */
final class TimeBudget {
  /** No limit. */
  static final TimeBudget NONE = new TimeBudget(0, 0, false);

  private final boolean reusable;
  private int limitMillis;
  private long startNanos;

  private TimeBudget(int limitMillis, long startNanos, boolean reusable) {
    this.limitMillis = limitMillis;
    this.startNanos = startNanos;
    this.reusable = reusable;
  }

  /**
   * A budget its thread restarts for each transaction ({@link #restart}):
   * nothing is allocated per transaction. A site's hot path.
   */
  static TimeBudget reusable() {
    return new TimeBudget(0, 0, true);
  }

  /**
   * This budget, restarted at {@code limitMillis} (0 = none) from now; what
   * it counted before is gone. REQUIRES: made by {@link #reusable}.
   */
  TimeBudget restart(int newLimitMillis) {
    if (!reusable) {
      throw new IllegalStateException("only a reusable time budget restarts");
    }
    limitMillis = newLimitMillis;
    startNanos = newLimitMillis == 0 ? 0 : System.nanoTime();
    return this;
  }

  /** A budget of {@code limitMillis} (0 = none) starting now. */
  static TimeBudget startingNow(int limitMillis) {
    return limitMillis == 0 ? NONE : new TimeBudget(limitMillis, System.nanoTime(), false);
  }

  int limitMillis() {
    return limitMillis;
  }

  /**
   * The time limit of the next engine batch: 0 when there is no limit, else
   * the milliseconds left (at least 1).
   *
   * @throws ServerException TRANSACTION_TIMEOUT when nothing is left
   */
  int nextBatchMillis() {
    if (limitMillis == 0) {
      return 0;
    }
    final long left = limitMillis - elapsedMillis();
    if (left <= 0) {
      throw timedOut();
    }
    return (int) left;
  }

  /**
   * {@code e} as the transaction's own failure: an engine timeout names the
   * whole transaction's time and limit instead of the last batch's.
   */
  RuntimeException rethrown(EngineException e) {
    return e.code() == ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT && limitMillis > 0 ? timedOut() : e;
  }

  private ServerException timedOut() {
    return new ServerException(ErrorCode.ERROR_CODE_TRANSACTION_TIMEOUT, "the transaction ran "
        + seconds(elapsedMillis()) + ", past its time limit of " + seconds(limitMillis)
        + "; it was rolled back");
  }

  private long elapsedMillis() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static String seconds(long millis) {
    return String.format(java.util.Locale.ROOT, "%.3f s", millis / 1000.0);
  }
}
