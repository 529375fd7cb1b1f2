package org.partita.sqllogictest;

import java.util.List;

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
 * <p>Thread model: confined to one thread, like its target.
 */
public final class ScriptRunner {

  /** The engine name that {@code skipif}/{@code onlyif} conditions are matched against. */
  public static final String ENGINE_NAME = "partita";

  private final SqlTarget target;
  private final RunListener listener;

  /** A runner driving {@code target} (not owned: the caller closes it) and telling {@code listener}. */
  public ScriptRunner(SqlTarget target, RunListener listener) {
    this.target = target;
    this.listener = listener;
  }

  /** Resets the target, runs {@code records} of {@code file} in order and returns the counts. */
  public FileReport run(String file, List<ScriptRecord> records) {
    target.reset();
    final QueryChecker checker = new QueryChecker();
    int passed = 0;
    int failed = 0;
    int skipped = 0;
    boolean halted = false;
    for (int i = 0; i < records.size(); i++) {
      final ScriptRecord record = records.get(i);
      final boolean counted = isCounted(record);
      if (halted || !Condition.allAllow(record.conditions(), ENGINE_NAME)) {
        skipped += counted ? 1 : 0;
      } else if (record instanceof ScriptRecord.Halt) {
        halted = true;
      } else if (counted) {
        final Failure failure = runRecord(record, checker);
        if (failure == null) {
          passed++;
        } else {
          failed++;
          listener.failed(failure);
        }
      }
      listener.recordDone(file, i + 1, records.size());
    }
    return new FileReport(file, passed, failed, skipped);
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
      final StatementResult result;
      try {
        result = target.execute(query.sql());
      } catch (RuntimeException e) {
        return targetThrew(record.location(), query.sql(), QueryChecker.expectedText(query), e);
      }
      return checker.check(query, result);
    }
    final ScriptRecord.Malformed malformed = (ScriptRecord.Malformed) record;
    return new Failure(malformed.location(), "", "malformed record: " + malformed.problem(), "", "");
  }

  private Failure runStatement(ScriptRecord.Statement statement) {
    final String expected = statement.expectError()
        ? "error" + (statement.expectedError() == null ? "" : " containing: " + statement.expectedError())
        : "ok";
    final StatementResult result;
    try {
      result = target.execute(statement.sql());
    } catch (RuntimeException e) {
      return targetThrew(statement.location(), statement.sql(), expected, e);
    }
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

  private static Failure targetThrew(Location location, String sql, String expected, RuntimeException e) {
    return new Failure(location, sql, "target threw " + e, expected, "exception: " + e);
  }
}
