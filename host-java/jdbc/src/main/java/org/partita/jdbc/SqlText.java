package org.partita.jdbc;

import java.util.Locale;

/**
 * What the driver needs to know of a SQL text before sending it as
 * {@code @AdHoc}: how many {@code ?} placeholders it holds (outside string
 * literals, quoted names and comments) and its first keyword. Stateless.
 */
final class SqlText {
  private SqlText() {}

  /** The number of {@code ?} placeholders in {@code sql}. */
  static int placeholders(String sql) {
    int count = 0;
    int i = 0;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = skipQuoted(sql, i, c);
      } else if (c == '-' && sql.startsWith("--", i)) {
        final int eol = sql.indexOf('\n', i);
        i = eol < 0 ? sql.length() : eol + 1;
      } else if (c == '/' && sql.startsWith("/*", i)) {
        final int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else {
        if (c == '?') {
          count++;
        }
        i++;
      }
    }
    return count;
  }

  /** The index after the quoted text starting at {@code start} (a doubled quote is part of it). */
  private static int skipQuoted(String sql, int start, char quote) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2;
          continue;
        }
        return i + 1;
      }
      i++;
    }
    return i;
  }

  /** The first word of {@code sql}, upper-cased, after blanks, comments and opening parentheses ("" if none). */
  static String firstKeyword(String sql) {
    int i = 0;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        final int eol = sql.indexOf('\n', i);
        i = eol < 0 ? sql.length() : eol + 1;
      } else if (sql.startsWith("/*", i)) {
        final int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else {
        break;
      }
    }
    int end = i;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    return sql.substring(i, end).toUpperCase(Locale.ROOT);
  }

  /** Whether {@code sql} changes rows (its answer is one row holding the count of rows changed). */
  static boolean isDml(String sql) {
    switch (firstKeyword(sql)) {
      case "INSERT":
      case "UPDATE":
      case "DELETE":
      case "UPSERT":
      case "TRUNCATE":
        return true;
      default:
        return false;
    }
  }
}
