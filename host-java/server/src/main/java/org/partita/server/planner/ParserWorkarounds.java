package org.partita.server.planner;

/**
 * Rewrites SQL text that means what it says but that the SQL parser
 * (JSqlParser) cannot read, before parsing:
 *
 * <ul>
 *   <li>runs of two or more sign operators ({@code - + x}, {@code 2 * - - 3})
 *       become one sign: the parser accepts at most one unary sign per
 *       operand;
 *   <li>the set quantifier {@code ALL} right after an opening parenthesis
 *       ({@code SUM(ALL - x)}) is dropped: it is the default, and the parser
 *       reads it as a value when a sign follows.
 * </ul>
 *
 * <p>Folding is exact: a run holds at most one binary operator (its first
 * sign) and unary signs bind tighter than any binary operator, so {@code a - -
 * b * c} = {@code a + b * c} and {@code - + x} = {@code - x}. Signs are
 * combined by their product. String literals, quoted names and comments are
 * copied untouched.
 */
final class ParserWorkarounds {
  private ParserWorkarounds() {}

  static String rewrite(String sql) {
    final StringBuilder out = new StringBuilder(sql.length());
    int i = 0;
    final int n = sql.length();
    while (i < n) {
      final char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`' || c == '[') {
        i = copyQuoted(sql, i, c == '[' ? ']' : c, out);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        final int end = sql.indexOf('\n', i);
        final int stop = end < 0 ? n : end;
        out.append(sql, i, stop);
        i = stop;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        final int end = sql.indexOf("*/", i + 2);
        final int stop = end < 0 ? n : end + 2;
        out.append(sql, i, stop);
        i = stop;
      } else if (c == '-' || c == '+') {
        i = foldRun(sql, i, out);
      } else if (c == '(') {
        out.append(c);
        i = skipAll(sql, i + 1, out);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** After '(' at {@code start - 1}: skips a following ALL keyword; returns where to go on. */
  private static int skipAll(String sql, int start, StringBuilder out) {
    int i = start;
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    final int end = i + 3;
    if (end < sql.length() && sql.regionMatches(true, i, "ALL", 0, 3)
        && !Character.isLetterOrDigit(sql.charAt(end)) && sql.charAt(end) != '_') {
      return end;
    }
    return start;
  }

  /** Copies a quoted token starting at {@code start}; returns the index after it. */
  private static int copyQuoted(String sql, int start, char close, StringBuilder out) {
    int i = start + 1;
    while (i < sql.length()) {
      if (sql.charAt(i) == close) {
        if (close != ']' && i + 1 < sql.length() && sql.charAt(i + 1) == close) {
          i += 2;  // doubled quote inside the token
          continue;
        }
        i++;
        break;
      }
      i++;
    }
    out.append(sql, start, i);
    return i;
  }

  /** Folds the run of signs starting at {@code start}; returns the index after it. */
  private static int foldRun(String sql, int start, StringBuilder out) {
    int i = start;
    int signs = 0;
    boolean negative = false;
    int afterLastSign = start;
    while (i < sql.length()) {
      final char c = sql.charAt(i);
      if (c == '-' || c == '+') {
        if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
          break;  // a comment, not a sign
        }
        negative ^= c == '-';
        signs++;
        i++;
        afterLastSign = i;
      } else if (Character.isWhitespace(c)) {
        i++;
      } else {
        break;
      }
    }
    if (signs == 1) {
      out.append(sql, start, afterLastSign);
    } else {
      out.append(negative ? '-' : '+');
    }
    return afterLastSign;
  }
}
