package org.partita.server.procedure;

/**
 * A SQL statement of a stored procedure, declared as a field so that it is
 * planned when the schema compiles:
 * <pre>{@code public final SqlStmt findVotes = new SqlStmt("SELECT num_votes FROM v WHERE phone = ?;");}</pre>
 * Immutable.
 */
public final class SqlStmt {
  private final String sql;

  public SqlStmt(String sql) {
    this.sql = sql;
  }

  public String sql() {
    return sql;
  }

  @Override
  public String toString() {
    return sql;
  }
}
