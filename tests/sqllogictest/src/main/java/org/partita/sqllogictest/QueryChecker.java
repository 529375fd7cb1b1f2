package org.partita.sqllogictest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a {@code query} record passed, and remembers label hashes across one file.
 *
 * <p>Comparison follows the expected result's form, which is how the reference runner wrote it: a
 * hash line is compared with the hash of the actual values; value lines are compared one value per
 * line, or one row per line (values joined by single spaces) when the query has several columns
 * and there is one line per actual row. The values are formatted by {@link ValueFormatter} and
 * sorted by {@link ResultValues} first. A query with a label must also produce the same hash as the
 * first passing query with that label in the file.
 *
 * <p>Not thread-safe; one instance per file.
 */
final class QueryChecker {

  /** The first passing result of each label: its hash line and where it was. */
  private final Map<String, LabelledResult> labels = new HashMap<>();

  /** Returns null iff {@code query} passed with {@code result}; otherwise why it failed. */
  Failure check(ScriptRecord.Query query, StatementResult result) {
    if (result instanceof StatementResult.Failed failed) {
      return failure(query, "query failed: " + failed.message(), "error: " + failed.message());
    }
    final ResultRows rows = ((StatementResult.Succeeded) result).rows();
    if (rows.columnCount() != query.types().length()) {
      return failure(
          query,
          "expected " + query.types().length() + " columns, got " + rows.columnCount(),
          "columns " + rows.columnTypes());
    }
    final List<String> values = ResultValues.of(query.types(), rows, query.sortMode());
    final String hashLine = ResultHasher.hashLine(values);
    if (!matches(query.expected(), values, rows.columnCount(), hashLine)) {
      return failure(query, "wrong result", actualText(query, values, hashLine));
    }
    return checkLabel(query, hashLine);
  }

  private static boolean matches(
      ExpectedResult expected, List<String> values, int columns, String hashLine) {
    if (expected instanceof ExpectedResult.Hash hash) {
      return hash.line().equals(hashLine);
    }
    if (expected instanceof ExpectedResult.Values lines) {
      return lines.lines().equals(values)
          || (columns > 1 && lines.lines().equals(ResultValues.asRowLines(values, columns)));
    }
    return true;
  }

  private Failure checkLabel(ScriptRecord.Query query, String hashLine) {
    if (query.label() == null) {
      return null;
    }
    final LabelledResult first = labels.get(query.label());
    if (first == null) {
      labels.put(query.label(), new LabelledResult(hashLine, query.location()));
      return null;
    }
    if (first.hashLine().equals(hashLine)) {
      return null;
    }
    return new Failure(
        query.location(),
        query.sql(),
        "result differs from " + query.label() + " at " + first.location(),
        first.hashLine(),
        hashLine);
  }

  private static Failure failure(ScriptRecord.Query query, String reason, String actual) {
    return new Failure(query.location(), query.sql(), reason, expectedText(query), actual);
  }

  /** The expected result as the script writes it. */
  static String expectedText(ScriptRecord.Query query) {
    final ExpectedResult expected = query.expected();
    if (expected instanceof ExpectedResult.Hash hash) {
      return hash.line();
    }
    if (expected instanceof ExpectedResult.Values lines) {
      return String.join("\n", lines.lines());
    }
    return "";
  }

  /** The actual values in the expected result's layout; with the hash line when that is expected. */
  private static String actualText(ScriptRecord.Query query, List<String> values, String hashLine) {
    final int columns = query.types().length();
    if (query.expected() instanceof ExpectedResult.Hash) {
      return hashLine + "\n" + String.join("\n", values);
    }
    final ExpectedResult.Values expected = (ExpectedResult.Values) query.expected();
    final boolean rowLayout = columns > 1 && expected.lines().size() < values.size()
        && expected.lines().stream().anyMatch(line -> line.indexOf(' ') >= 0);
    return String.join("\n", rowLayout ? ResultValues.asRowLines(values, columns) : values);
  }

  private record LabelledResult(String hashLine, Location location) {}
}
