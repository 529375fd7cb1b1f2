package org.partita.server.planner;

/** SQL text that does not parse; carries the 1-based line and column of the offending token. */
public final class SqlSyntaxException extends PlanningException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String token;

  public SqlSyntaxException(String message, int line, int column, String token, Throwable cause) {
    super(message, cause);
    this.line = line;
    this.column = column;
    this.token = token;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  public String token() {
    return token;
  }
}
