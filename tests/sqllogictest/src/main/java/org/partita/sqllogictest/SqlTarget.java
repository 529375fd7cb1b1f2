package org.partita.sqllogictest;

/**
 * A database the runner drives, one SQL statement at a time. The runner creates one target per
 * script file through a {@link SqlTargetFactory}, calls {@link #reset()} once before the first
 * record, runs the records in order on one thread, then closes the target.
 *
 * <p>Thread model: confined to the thread that runs the script.
 */
public interface SqlTarget extends AutoCloseable {

  /**
   * Runs {@code sql} (one statement, as written in the script: DDL, DML or a query, possibly
   * spanning lines, without a trailing semicolon in the corpus).
   *
   * <p>Returns the rows, or {@link StatementResult#error(String)} iff the database rejected the
   * statement. Throws only when the target itself is broken; the runner then counts the record as
   * failed even if the script expected an error.
   */
  StatementResult execute(String sql);

  /** Drops every table, index, view and row, so the next statement sees an empty database. */
  void reset();

  /** Releases the database; the target is not used afterwards. */
  @Override
  void close();
}
