package org.partita.sqllogictest;

/**
 * The {@code none} target: no database at all. Every statement succeeds and returns no rows, so a
 * script's {@code statement ok} records pass and its {@code statement error} records and non-empty
 * queries fail. It checks that the runner, the parser and a corpus work without starting anything.
 */
public final class NoDatabaseTargetFactory implements SqlTargetFactory {

  @Override
  public String name() {
    return "none";
  }

  @Override
  public String description() {
    return "no database: every statement succeeds with no rows (smoke test of the runner)";
  }

  @Override
  public SqlTarget create(TargetOptions options) {
    return new NoDatabaseTarget();
  }

  /** Answers every statement with success and no rows. Stateless. */
  private static final class NoDatabaseTarget implements SqlTarget {
    @Override
    public StatementResult execute(String sql) {
      return StatementResult.ok();
    }

    @Override
    public void reset() {}

    @Override
    public void close() {}
  }
}
