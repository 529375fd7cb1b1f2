package org.partita.server.compiler.ddl;

import java.util.Locale;

/**
 * One token of a statement, as read by {@link DdlTokenizer}.
 *
 * @param kind what sort of token it is
 * @param text the token exactly as written (quotes included); empty for {@link Kind#END}
 * @param offset where the token starts in the statement's text
 */
record Token(Kind kind, String text, int offset) {

  /** Token kinds. Keywords are {@link #WORD}s; the parser decides which words are keywords. */
  enum Kind {
    /** A letter or {@code _}, then letters, digits, {@code _} or {@code $}. */
    WORD,
    /** {@code "..."} with {@code ""} for a quote inside. */
    QUOTED_IDENTIFIER,
    /** A digit, then letters, digits, {@code _} or {@code .}; the parser checks the form. */
    NUMBER,
    /** {@code '...'} with {@code ''} for a quote inside. */
    STRING,
    /** Any other single char that is not white space. */
    SYMBOL,
    /** The end of the statement. */
    END
  }

  /** Returns true iff this is the unquoted word {@code keyword}, in any case. */
  boolean isKeyword(String keyword) {
    return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
  }

  /** Returns true iff this is the symbol {@code symbol}. */
  boolean isSymbol(char symbol) {
    return kind == Kind.SYMBOL && text.charAt(0) == symbol;
  }

  /** Returns true iff this token can name a table, column, index, view or procedure. */
  boolean isIdentifier() {
    return kind == Kind.WORD || kind == Kind.QUOTED_IDENTIFIER;
  }

  /**
   * The name an identifier token stands for: an unquoted word in upper case, a quoted one exactly
   * as written between its quotes. REQUIRES: {@link #isIdentifier()}.
   */
  String identifierName() {
    if (kind == Kind.WORD) {
      return text.toUpperCase(Locale.ROOT);
    }
    return text.substring(1, text.length() - 1).replace("\"\"", "\"");
  }

  /** The offset just after the token. */
  int end() {
    return offset + text.length();
  }
}
