package org.partita.sqllogictest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.partita.client.ValueType;

/**
 * A {@link SqlTarget} for tests: answers each SQL text with a scripted result, succeeds with no rows
 * for anything unscripted, and throws for {@code SELECT crash()}. Records what it ran.
 */
final class ScriptedTarget implements SqlTarget {

  private final Map<String, StatementResult> answers = new HashMap<>();
  final List<String> executed = new ArrayList<>();
  int resets;
  boolean closed;

  ScriptedTarget answer(String sql, StatementResult result) {
    answers.put(sql, result);
    return this;
  }

  /** The answers that {@code scripts/sample.test} was written against. */
  static ScriptedTarget forSample() {
    final ScriptedTarget target = new ScriptedTarget();
    target.answer("CREATE TABLE broken", StatementResult.error("syntax error near end"));
    target.answer("CREATE TABLE t1(a INTEGER)", StatementResult.error("table t1 already exists"));
    target.answer("SELECT * FROM nowhere", StatementResult.error("no such table: nowhere"));
    target.answer("SELECT a, b FROM t1",
        rows(ResultRows.builder(ValueType.BIGINT, ValueType.VARCHAR).row(2L, "").row(1L, "one")));
    target.answer("SELECT a, b FROM t1 ORDER BY a",
        rows(ResultRows.builder(ValueType.BIGINT, ValueType.VARCHAR).row(1L, "one").row(2L, "")));
    target.answer("SELECT a, b FROM t1 ORDER BY a DESC",
        rows(ResultRows.builder(ValueType.BIGINT, ValueType.VARCHAR).row(2L, "").row(1L, "one")));
    target.answer("SELECT count(*) FROM t1", rows(ResultRows.builder(ValueType.BIGINT).row(2L)));
    final ResultRows.Builder ten = ResultRows.builder(ValueType.INTEGER);
    for (long n = 10; n >= 1; n--) {
      ten.row(n);
    }
    target.answer("SELECT n FROM ten", rows(ten));
    target.answer("SELECT 1.5", rows(ResultRows.builder(ValueType.FLOAT).row(1.5)));
    target.answer("SELECT 'runs'", rows(ResultRows.builder(ValueType.VARCHAR).row("runs")));
    return target;
  }

  private static StatementResult rows(ResultRows.Builder builder) {
    return StatementResult.rows(builder.build());
  }

  @Override
  public StatementResult execute(String sql) {
    executed.add(sql);
    if (sql.equals("SELECT crash()")) {
      throw new IllegalStateException("scripted crash");
    }
    return answers.getOrDefault(sql, StatementResult.ok());
  }

  @Override
  public void reset() {
    resets++;
  }

  @Override
  public void close() {
    closed = true;
  }
}
