package org.partita.sqllogictest;

/**
 * A database the runner drives, one SQL statement at a time. The runner creates one target per
 * script file through a {@link SqlTargetFactory}, calls {@link #reset()} once before the first
 * record, runs the records in order on one thread, then closes the target.
 *
 * <p>Thread model: {@link #execute}, {@link #reset} and {@link #close} are called on one thread
 * (the runner's worker); {@link #cancel()} is called from another thread while {@code execute}
 * runs.
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

  /**
   * Asks the statement that {@link #execute} is running to stop (the runner calls it when a record
   * passed its time limit). Returns true iff the target passed the request on; {@code execute}
   * should then return soon, with an error. The default cannot stop anything and returns false.
   */
  default boolean cancel() {
    return false;
  }

  /** Releases the database; the target is not used afterwards. */
  @Override
  void close();
}
