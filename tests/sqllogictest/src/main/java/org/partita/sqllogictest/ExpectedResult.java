package org.partita.sqllogictest;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@code query} record expects, read from the lines after its {@code ----} separator: the
 * formatted values themselves, or a count and an MD5 hash of them, or nothing at all.
 */
public sealed interface ExpectedResult {

  /**
   * The expected values, one per line as the corpus writes them. A line may instead hold a whole
   * row, its values separated by single spaces (SQLite's alternative layout); the checker accepts
   * either.
   */
  record Values(List<String> lines) implements ExpectedResult {
    public Values {
      lines = List.copyOf(lines);
    }
  }

  /** {@code <count> values hashing to <md5>}: the MD5 of the values, each followed by a newline. */
  record Hash(int count, String md5) implements ExpectedResult {
    private static final Pattern LINE = Pattern.compile("(\\d+) values hashing to ([0-9a-f]{32})");

    /** Returns the line as the script writes it. */
    public String line() {
      return count + " values hashing to " + md5;
    }

    /** Returns the hash that {@code line} states, or null iff {@code line} is not a hash line. */
    public static Hash parse(String line) {
      final Matcher matcher = LINE.matcher(line);
      if (!matcher.matches()) {
        return null;
      }
      return new Hash(Integer.parseInt(matcher.group(1)), matcher.group(2));
    }
  }

  /** The record has no {@code ----} section: only success (and label agreement) is checked. */
  record None() implements ExpectedResult {}
}
