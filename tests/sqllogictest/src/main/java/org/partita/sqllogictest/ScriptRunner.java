package org.partita.sqllogictest;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Runs the records of one script file against a {@link SqlTarget} and counts the outcomes.
 *
 * <p>The runner plays a generic engine named {@value #ENGINE_NAME}, which no script names: {@code
 * skipif X} lets a record run and {@code onlyif X} skips it, for every X but {@code partita}. A
 * {@code statement ok} passes iff the target reports no error; a {@code statement error} passes iff
 * it reports one (containing the expected text, when the script gives one). Queries are checked by
 * {@link QueryChecker}. A {@code halt} that runs ends the file; the records after it count as
 * skipped. A target that throws fails the record and the run goes on.
 *
 * <p>Each record has a time limit ({@link #DEFAULT_RECORD_LIMIT} unless given): past it the record
 * fails ("timed out after N s"), the target is asked to cancel the statement, and the run goes on
 * if it stops within {@link #CANCEL_GRACE}; otherwise the target is abandoned and every later
 * record of the file fails without running. The report carries the file's time and its slowest
 * record.
 *
 * <p>Thread model: one caller thread; the target's calls run on a worker of their own ({@link
 * TimedTarget}).
 */
public final class ScriptRunner {

  /** The engine name that {@code skipif}/{@code onlyif} conditions are matched against. */
  public static final String ENGINE_NAME = "partita";

  /** The time limit of one record unless the caller gives another. */
  public static final Duration DEFAULT_RECORD_LIMIT = Duration.ofSeconds(60);
  /** How long a target has to stop a statement after the runner asked it to cancel. */
  public static final Duration CANCEL_GRACE = Duration.ofSeconds(10);

  private final TimedTarget target;
  private final RunListener listener;
  private final Duration recordLimit;
  private final LongSupplier nanoClock;
  private final Duration cancelGrace;
  private String abandonedAt;

  /** A runner with the default record limit and the system clock. */
  public ScriptRunner(SqlTarget target, RunListener listener) {
    this(target, listener, DEFAULT_RECORD_LIMIT, System::nanoTime);
  }

  /**
   * A runner driving {@code target} (owned: closed by {@link #run}) and telling {@code listener};
   * each record may run for {@code recordLimit}; times are read from {@code nanoClock}.
   */
  public ScriptRunner(SqlTarget target, RunListener listener, Duration recordLimit, LongSupplier nanoClock) {
    this(target, listener, recordLimit, CANCEL_GRACE, nanoClock);
  }

  /** As above, with {@code cancelGrace} instead of {@link #CANCEL_GRACE}. */
  ScriptRunner(SqlTarget target, RunListener listener, Duration recordLimit, Duration cancelGrace,
      LongSupplier nanoClock) {
    this.target = new TimedTarget(target, recordLimit, cancelGrace);
    this.cancelGrace = cancelGrace;
    this.listener = listener;
    this.recordLimit = recordLimit;
    this.nanoClock = nanoClock;
  }

  /**
   * Resets the target, runs {@code records} of {@code file} in order, closes the target (unless it
   * had to be abandoned) and returns the counts and timings.
   */
  public FileReport run(String file, List<ScriptRecord> records) {
    try (TimedTarget closing = target) {
      return runRecords(file, records);
    }
  }

  private FileReport runRecords(String file, List<ScriptRecord> records) {
    final long start = nanoClock.getAsLong();
    target.reset();
    final QueryChecker checker = new QueryChecker();
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    boolean halted = false;
    Location slowest = null;
    long slowestNanos = 0;
    for (int i = 0; i < records.size(); i++) {
      final ScriptRecord record = records.get(i);
      final boolean counted = isCounted(record);
      if (halted || !Condition.allAllow(record.conditions(), ENGINE_NAME)) {
        skipped += counted ? 1 : 0;
      } else if (record instanceof ScriptRecord.Halt) {
        halted = true;
      } else if (counted) {
        final long recordStart = nanoClock.getAsLong();
        final Failure failure = runRecord(record, checker);
        final long took = nanoClock.getAsLong() - recordStart;
        if (took > slowestNanos) {
          slowestNanos = took;
          slowest = record.location();
        }
        if (failure == null) {
          passed++;
        } else {
          failed++;
          listener.failed(failure);
        }
      }
      listener.recordDone(file, i + 1, records.size());
    }
    final FileTiming timing = new FileTiming(nanoClock.getAsLong() - start, slowest, slowestNanos);
    return new FileReport(file, passed, failed, skipped, timing);
  }

  /** Statements, queries and malformed records count; hash-threshold and halt do not. */
  private static boolean isCounted(ScriptRecord record) {
    return record instanceof ScriptRecord.Statement
        || record instanceof ScriptRecord.Query
        || record instanceof ScriptRecord.Malformed;
  }

  /** Returns null iff the record passed. */
  private Failure runRecord(ScriptRecord record, QueryChecker checker) {
    if (record instanceof ScriptRecord.Statement statement) {
      return runStatement(statement);
    }
    if (record instanceof ScriptRecord.Query query) {
      final String expected = QueryChecker.expectedText(query);
      final TimedTarget.Outcome outcome = execute(query.location(), query.sql());
      if (outcome instanceof TimedTarget.Outcome.Done done) {
        return checker.check(query, done.result());
      }
      return notAnswered(query.location(), query.sql(), expected, outcome);
    }
    final ScriptRecord.Malformed malformed = (ScriptRecord.Malformed) record;
    return new Failure(malformed.location(), "", "malformed record: " + malformed.problem(), "", "");
  }

  private Failure runStatement(ScriptRecord.Statement statement) {
    final String expected = statement.expectError()
        ? "error" + (statement.expectedError() == null ? "" : " containing: " + statement.expectedError())
        : "ok";
    final TimedTarget.Outcome outcome = execute(statement.location(), statement.sql());
    if (!(outcome instanceof TimedTarget.Outcome.Done done)) {
      return notAnswered(statement.location(), statement.sql(), expected, outcome);
    }
    final StatementResult result = done.result();
    if (!(result instanceof StatementResult.Failed failed)) {
      return statement.expectError()
          ? new Failure(statement.location(), statement.sql(),
              "statement succeeded but an error was expected", expected, "ok")
          : null;
    }
    final String actual = "error: " + failed.message();
    if (!statement.expectError()) {
      return new Failure(statement.location(), statement.sql(), "statement failed", expected, actual);
    }
    if (statement.expectedError() != null && !failed.message().contains(statement.expectedError())) {
      return new Failure(statement.location(), statement.sql(),
          "statement failed with a different error", expected, actual);
    }
    return null;
  }

  /** Runs {@code sql} unless an earlier record left the target stuck. */
  private TimedTarget.Outcome execute(Location location, String sql) {
    if (target.abandoned()) {
      return null;
    }
    final TimedTarget.Outcome outcome = target.execute(sql);
    if (outcome instanceof TimedTarget.Outcome.TimedOut t && !t.stopped()) {
      abandonedAt = location.toString();
    }
    return outcome;
  }

  /** The failure of a record the target did not answer: it threw, timed out, or never ran. */
  private Failure notAnswered(Location location, String sql, String expected, TimedTarget.Outcome outcome) {
    if (outcome instanceof TimedTarget.Outcome.Threw threw) {
      final RuntimeException e = threw.error();
      return new Failure(location, sql, "target threw " + e, expected, "exception: " + e);
    }
    if (outcome instanceof TimedTarget.Outcome.TimedOut timedOut) {
      final String reason = String.format(Locale.ROOT, "timed out after %s s (the record time limit)%s",
          seconds(recordLimit), timedOut.stopped() ? "; the statement was cancelled"
              : "; the statement did not stop within " + seconds(cancelGrace) + " s of the cancel, "
                  + "so the rest of the file does not run");
      return new Failure(location, sql, reason, expected, "no answer");
    }
    return new Failure(location, sql, "not run: the statement at " + abandonedAt
        + " timed out and did not stop", expected, "not run");
  }

  private static String seconds(Duration d) {
    return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds())
        : String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0);
  }
}
