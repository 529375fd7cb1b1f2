package org.partita.server.compiler.ddl;

/**
 * Reads the tokens of one {@link ScriptStatement} on demand, so that a parser can stop early and
 * hand the rest of the text (for example a procedure's SQL body) to another parser untouched.
 * Never fails on unknown chars: each becomes a {@link Token.Kind#SYMBOL}. Not thread-safe.
 */
final class DdlTokenizer {

  private final ScriptStatement statement;
  private final String text;
  private int position;

  DdlTokenizer(ScriptStatement statement) {
    this.statement = statement;
    this.text = statement.text();
  }

  /**
   * Returns the next token; {@link Token.Kind#END} at the end and ever after.
   *
   * @throws DdlException at an unterminated string or quoted identifier (only possible for text
   *     that did not come from {@link ScriptSplitter})
   */
  Token next() throws DdlException {
    while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
      position++;
    }
    if (position == text.length()) {
      return new Token(Token.Kind.END, "", position);
    }
    final int start = position;
    final char c = text.charAt(start);
    final Token.Kind kind;
    if (Character.isLetter(c) || c == '_') {
      kind = Token.Kind.WORD;
      position = skipWordChars(start + 1, '$');
    } else if (Character.isDigit(c)) {
      kind = Token.Kind.NUMBER;
      position = skipWordChars(start + 1, '.');
    } else if (c == '"') {
      kind = Token.Kind.QUOTED_IDENTIFIER;
      position = skipQuoted(start);
    } else if (c == '\'') {
      kind = Token.Kind.STRING;
      position = skipQuoted(start);
    } else {
      kind = Token.Kind.SYMBOL;
      position = start + 1;
    }
    return new Token(kind, text.substring(start, position), start);
  }

  /** Skips letters, digits, {@code _} and {@code extra}; returns the offset after them. */
  private int skipWordChars(int from, char extra) {
    int i = from;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (!Character.isLetterOrDigit(c) && c != '_' && c != extra) {
        break;
      }
      i++;
    }
    return i;
  }

  private int skipQuoted(int start) throws DdlException {
    final char quote = text.charAt(start);
    final int end = QuotedText.end(text, start);
    if (end >= 0) {
      return end;
    }
    throw statement.errorAt(start, "unterminated quoted text: no closing " + quote,
        String.valueOf(quote));
  }
}
