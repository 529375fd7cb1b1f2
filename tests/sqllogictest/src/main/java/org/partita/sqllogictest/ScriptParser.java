package org.partita.sqllogictest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a sqllogictest script into {@link ScriptRecord}s.
 *
 * <p>The format (https://www.sqlite.org/sqllogictest/doc/trunk/about.wiki): records are separated
 * by blank lines; a line holding only whitespace counts as blank, and a trailing {@code \r} is
 * dropped so CRLF files read like LF ones. Lines starting with {@code #} between records are
 * comments. A record may be preceded by {@code skipif <engine>} / {@code onlyif <engine>} lines.
 * Its first line is one of:
 *
 * <ul>
 *   <li>{@code statement ok} / {@code statement error [text]}, then the SQL up to the blank line;
 *       a {@code statement error} may give the expected error text under a {@code ----} line;
 *   <li>{@code query <types> [nosort|rowsort|valuesort] [label]}, then the SQL, then optionally
 *       {@code ----} and the expected values, one per line, or one line {@code N values hashing to
 *       <md5>};
 *   <li>{@code hash-threshold N};
 *   <li>{@code halt}.
 * </ul>
 *
 * <p>A record that breaks these rules becomes {@link ScriptRecord.Malformed}; parsing goes on with
 * the next record. Stateless and thread-safe.
 */
public final class ScriptParser {

  private static final String SEPARATOR = "----";

  private ScriptParser() {}

  /** Parses the script at {@code path}, read as UTF-8; locations name the path as given. */
  public static List<ScriptRecord> parse(Path path) throws IOException {
    return parse(path.toString(), Files.readString(path, StandardCharsets.UTF_8));
  }

  /** Parses {@code text}; {@code file} is the name that locations carry. */
  public static List<ScriptRecord> parse(String file, String text) {
    final Lines lines = new Lines(text);
    final List<ScriptRecord> records = new ArrayList<>();
    while (skipToRecord(lines)) {
      records.add(parseRecord(file, lines));
    }
    return records;
  }

  /** Moves past blank and comment lines; returns true iff a record line follows. */
  private static boolean skipToRecord(Lines lines) {
    while (!lines.atEnd() && (lines.current().isEmpty() || lines.current().startsWith("#"))) {
      lines.advance();
    }
    return !lines.atEnd();
  }

  private static ScriptRecord parseRecord(String file, Lines lines) {
    final List<Condition> conditions = new ArrayList<>();
    String[] tokens = tokens(lines.current());
    while (isCondition(tokens[0])) {
      if (tokens.length < 2) {
        return malformed(file, lines, conditions, "'" + tokens[0] + "' names no engine");
      }
      final Condition.Kind kind =
          tokens[0].equals("skipif") ? Condition.Kind.SKIPIF : Condition.Kind.ONLYIF;
      conditions.add(new Condition(kind, tokens[1]));
      lines.advance();
      if (lines.atEnd() || lines.current().isEmpty()) {
        return malformed(file, lines, conditions, "condition without a record");
      }
      tokens = tokens(lines.current());
    }
    final Location location = new Location(file, lines.lineNumber());
    switch (tokens[0]) {
      case "statement":
        return parseStatement(location, conditions, tokens, lines);
      case "query":
        return parseQuery(location, conditions, tokens, lines);
      case "hash-threshold":
        return parseHashThreshold(location, conditions, tokens, lines);
      case "halt":
        lines.advance();
        return new ScriptRecord.Halt(location, conditions);
      default:
        return malformed(file, lines, conditions, "unknown record type '" + tokens[0] + "'");
    }
  }

  private static boolean isCondition(String token) {
    return token.equals("skipif") || token.equals("onlyif");
  }

  private static ScriptRecord parseStatement(
      Location location, List<Condition> conditions, String[] tokens, Lines lines) {
    final String header = lines.current();
    lines.advance();
    final boolean expectError;
    if (tokens.length >= 2 && tokens[1].equals("ok")) {
      expectError = false;
    } else if (tokens.length >= 2 && tokens[1].equals("error")) {
      expectError = true;
    } else {
      return malformedAt(location, conditions, lines, "statement must be 'ok' or 'error'");
    }
    final List<String> sql = new ArrayList<>();
    while (!lines.atEnd() && !lines.current().isEmpty()) {
      if (expectError && lines.current().equals(SEPARATOR)) {
        lines.advance();
        final String expected = String.join("\n", readBlock(lines));
        return new ScriptRecord.Statement(
            location, conditions, String.join("\n", sql), true, expected.isEmpty() ? null : expected);
      }
      sql.add(lines.current());
      lines.advance();
    }
    final String joined = String.join("\n", sql);
    final String expected = expectError ? headerErrorText(header) : null;
    return new ScriptRecord.Statement(location, conditions, joined, expectError, expected);
  }

  /** The text after {@code statement error} on the header line, or null when there is none. */
  private static String headerErrorText(String header) {
    final String rest = header.trim().substring("statement".length()).trim();
    final String text = rest.substring("error".length()).trim();
    return text.isEmpty() || text.startsWith("#") ? null : text;
  }

  private static ScriptRecord parseQuery(
      Location location, List<Condition> conditions, String[] tokens, Lines lines) {
    lines.advance();
    final String problem = queryHeaderProblem(tokens);
    if (problem != null) {
      return malformedAt(location, conditions, lines, problem);
    }
    final SortMode sortMode = tokens.length >= 3 ? SortMode.fromToken(tokens[2]) : SortMode.NOSORT;
    final String label = tokens.length >= 4 ? tokens[3] : null;
    final List<String> sql = new ArrayList<>();
    while (!lines.atEnd() && !lines.current().isEmpty() && !lines.current().equals(SEPARATOR)) {
      sql.add(lines.current());
      lines.advance();
    }
    ExpectedResult expected = new ExpectedResult.None();
    if (!lines.atEnd() && lines.current().equals(SEPARATOR)) {
      lines.advance();
      expected = expectedResult(readBlock(lines));
    }
    return new ScriptRecord.Query(
        location, conditions, tokens[1], sortMode, label, String.join("\n", sql), expected);
  }

  /** Returns what is wrong with a query header, or null when it is well formed. */
  private static String queryHeaderProblem(String[] tokens) {
    if (tokens.length < 2) {
      return "query names no column types";
    }
    for (final char letter : tokens[1].toCharArray()) {
      if (letter != 'I' && letter != 'R' && letter != 'T') {
        return "unknown column type '" + letter + "' (expected I, R or T)";
      }
    }
    if (tokens.length >= 3 && SortMode.fromToken(tokens[2]) == null) {
      return "unknown sort mode '" + tokens[2] + "'";
    }
    return null;
  }

  private static ExpectedResult expectedResult(List<String> block) {
    if (block.size() == 1) {
      final ExpectedResult.Hash hash = ExpectedResult.Hash.parse(block.get(0));
      if (hash != null) {
        return hash;
      }
    }
    return new ExpectedResult.Values(block);
  }

  private static ScriptRecord parseHashThreshold(
      Location location, List<Condition> conditions, String[] tokens, Lines lines) {
    lines.advance();
    if (tokens.length < 2) {
      return malformedAt(location, conditions, lines, "hash-threshold needs a number");
    }
    try {
      final int threshold = Integer.parseInt(tokens[1]);
      return new ScriptRecord.HashThreshold(location, conditions, threshold);
    } catch (NumberFormatException e) {
      return malformedAt(location, conditions, lines, "bad hash-threshold '" + tokens[1] + "'");
    }
  }

  /** Reads lines up to (not including) the next blank line. */
  private static List<String> readBlock(Lines lines) {
    final List<String> block = new ArrayList<>();
    while (!lines.atEnd() && !lines.current().isEmpty()) {
      block.add(lines.current());
      lines.advance();
    }
    return block;
  }

  private static ScriptRecord malformed(
      String file, Lines lines, List<Condition> conditions, String problem) {
    final Location location = new Location(file, lines.lineNumber());
    return malformedAt(location, conditions, lines, problem);
  }

  /** Skips the rest of the record and returns it as malformed. */
  private static ScriptRecord malformedAt(
      Location location, List<Condition> conditions, Lines lines, String problem) {
    readBlock(lines);
    return new ScriptRecord.Malformed(location, conditions, problem);
  }

  private static String[] tokens(String line) {
    return line.trim().split("\\s+");
  }

  /** A cursor over the script's lines, normalised (no {@code \r}, whitespace-only lines empty). */
  private static final class Lines {
    private final String[] lines;
    private int index;

    Lines(String text) {
      this.lines = text.split("\n", -1);
    }

    boolean atEnd() {
      return index >= lines.length;
    }

    /** REQUIRES: !atEnd(). */
    String current() {
      String line = lines[index];
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      return line.isBlank() ? "" : line;
    }

    void advance() {
      index++;
    }

    /** The 1-based number of the current line. */
    int lineNumber() {
      return index + 1;
    }
  }
}
