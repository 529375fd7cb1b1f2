package org.partita.server.compiler.ddl;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a DDL script into statements at every {@code ;} that is not inside a comment, a string or
 * a quoted identifier.
 *
 * <p>Lexical rules:
 *
 * <ul>
 *   <li>{@code --} starts a comment that runs to the end of the line.
 *   <li>{@code /*} starts a comment that runs to the first {@code *}{@code /}. Block comments do
 *       not nest: {@code /* a /* b *}{@code / c *}{@code /} ends after {@code b}, leaving {@code c
 *       *}{@code /} as statement text (as in HSQLDB, VoltDB and the SQL-92 subset most engines
 *       accept).
 *   <li>{@code '...'} is a string and {@code "..."} a quoted identifier; inside either, a doubled
 *       quote stands for one quote.
 *   <li>A statement that is only white space and comments is skipped; the last statement needs
 *       no {@code ;}.
 * </ul>
 *
 * <p>Every statement, including the SQL body of {@code CREATE PROCEDURE ... AS}, ends at its
 * {@code ;}: a procedure defined AS a statement has exactly one statement. Comments are blanked
 * (see {@link ScriptStatement}) so later parsers never see them and positions stay exact.
 */
public final class ScriptSplitter {

  private final SourceText source;
  private final String text;
  private final char[] blanked;
  private final List<ScriptStatement> statements = new ArrayList<>();

  private ScriptSplitter(String fileName, String text) {
    this.source = new SourceText(fileName, text);
    this.text = text;
    this.blanked = text.toCharArray();
  }

  /**
   * Returns the statements of {@code text} in order; an empty list if there are none.
   *
   * @param fileName the name used in every {@link SourcePosition}
   * @throws DdlException at the opening of an unterminated block comment, string or quoted
   *     identifier
   */
  public static List<ScriptStatement> split(String fileName, String text) throws DdlException {
    final ScriptSplitter splitter = new ScriptSplitter(fileName, text);
    splitter.run();
    return List.copyOf(splitter.statements);
  }

  private void run() throws DdlException {
    int statementStart = 0;
    int i = 0;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (startsWith(i, "--")) {
        i = blankLineComment(i);
      } else if (startsWith(i, "/*")) {
        i = blankBlockComment(i);
      } else if (c == '\'' || c == '"') {
        i = skipQuoted(i);
      } else if (c == ';') {
        addStatement(statementStart, i);
        statementStart = i + 1;
        i++;
      } else {
        i++;
      }
    }
    addStatement(statementStart, text.length());
  }

  private boolean startsWith(int offset, String prefix) {
    return text.startsWith(prefix, offset);
  }

  /** Returns the offset of the line break (or end) that ends the comment at {@code start}. */
  private int blankLineComment(int start) {
    int i = start;
    while (i < text.length() && text.charAt(i) != '\n' && text.charAt(i) != '\r') {
      blanked[i] = ' ';
      i++;
    }
    return i;
  }

  /** Returns the offset just after the comment at {@code start}. */
  private int blankBlockComment(int start) throws DdlException {
    final int close = text.indexOf("*/", start + 2);
    if (close < 0) {
      throw source.errorAt(start, "unterminated block comment: no */ before the end of the file",
          "/*");
    }
    final int end = close + 2;
    for (int i = start; i < end; i++) {
      if (blanked[i] != '\n' && blanked[i] != '\r') {
        blanked[i] = ' ';
      }
    }
    return end;
  }

  /** Returns the offset just after the string or quoted identifier at {@code start}. */
  private int skipQuoted(int start) throws DdlException {
    final char quote = text.charAt(start);
    final int end = QuotedText.end(text, start);
    if (end >= 0) {
      return end;
    }
    final String what = quote == '\'' ? "string literal" : "quoted identifier";
    throw source.errorAt(start,
        "unterminated " + what + ": no closing " + quote + " before the end of the file",
        String.valueOf(quote));
  }

  private void addStatement(int start, int end) {
    int first = start;
    int last = end;
    while (first < last && Character.isWhitespace(blanked[first])) {
      first++;
    }
    while (last > first && Character.isWhitespace(blanked[last - 1])) {
      last--;
    }
    if (first < last) {
      statements.add(new ScriptStatement(source, first, new String(blanked, first, last - first)));
    }
  }
}
