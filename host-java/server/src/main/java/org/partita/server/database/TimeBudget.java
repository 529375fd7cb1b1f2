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
 * thread running the transaction.
 */
final class TimeBudget {
  /** No limit. */
  static final TimeBudget NONE = new TimeBudget(0, 0);

  private final int limitMillis;
  private final long startNanos;

  private TimeBudget(int limitMillis, long startNanos) {
    this.limitMillis = limitMillis;
    this.startNanos = startNanos;
  }

  /** A budget of {@code limitMillis} (0 = none) starting now. */
  static TimeBudget startingNow(int limitMillis) {
    return limitMillis == 0 ? NONE : new TimeBudget(limitMillis, System.nanoTime());
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
