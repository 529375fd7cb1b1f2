package org.partita.sqllogictest;

/**
 * What a {@link SqlTarget} answers for one SQL statement: rows (possibly none), or an error with the
 * engine's message. An error here means the database rejected the statement (bad SQL, constraint
 * violation, unsupported feature); a broken target throws instead.
 */
public sealed interface StatementResult {

  /** The statement ran; {@code rows} is what it returned ({@link ResultRows#empty()} for none). */
  record Succeeded(ResultRows rows) implements StatementResult {
    public Succeeded {
      if (rows == null) {
        throw new IllegalArgumentException("rows must not be null; use ResultRows.empty()");
      }
    }
  }

  /** The database rejected the statement with {@code message}. */
  record Failed(String message) implements StatementResult {
    public Failed {
      message = message == null ? "" : message;
    }
  }

  /** A success that returned no rows. */
  static StatementResult ok() {
    return new Succeeded(ResultRows.empty());
  }

  /** A success that returned {@code rows}. */
  static StatementResult rows(ResultRows rows) {
    return new Succeeded(rows);
  }

  /** A rejected statement. */
  static StatementResult error(String message) {
    return new Failed(message);
  }

  /** Returns true iff the database rejected the statement. */
  default boolean isError() {
    return this instanceof Failed;
  }
}
