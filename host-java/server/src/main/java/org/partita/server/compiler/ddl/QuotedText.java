package org.partita.server.compiler.ddl;

/** Finds where a quoted string or identifier ends; a doubled quote is an escaped one. */
final class QuotedText {
  private QuotedText() {}

  /**
   * Returns the offset just after the closing quote of the quoted text that
   * starts at {@code start} (whose character is the quote), or -1 when the
   * text ends first.
   */
  static int end(String text, int start) {
    final char quote = text.charAt(start);
    int i = start + 1;
    while (i < text.length()) {
      if (text.charAt(i) != quote) {
        i++;
      } else if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
        i += 2;
      } else {
        return i + 1;
      }
    }
    return -1;
  }
}
