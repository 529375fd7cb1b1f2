package org.partita.server.cli.shell;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the arguments of the shell's {@code exec Procedure arg ...}: words
 * separated by spaces or commas; {@code 'text'} (a doubled quote inside is
 * one quote) is a string; an integer is a Long; a number with a point or
 * exponent is a BigDecimal; {@code NULL} (any case) is null; any other bare
 * word is a string. Stateless.
 */
final class ExecArguments {
  private ExecArguments() {}

  /** The values of {@code text}; throws IllegalArgumentException naming an unterminated string's position. */
  static List<Object> parse(String text) {
    final List<Object> values = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (Character.isWhitespace(c) || c == ',') {
        i++;
      } else if (c == '\'') {
        i = quoted(text, i, values);
      } else {
        int end = i;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != ',') {
          end++;
        }
        values.add(word(text.substring(i, end)));
        i = end;
      }
    }
    return values;
  }

  private static int quoted(String text, int start, List<Object> values) {
    final StringBuilder s = new StringBuilder();
    int i = start + 1;
    while (i < text.length()) {
      final char c = text.charAt(i);
      if (c == '\'') {
        if (i + 1 < text.length() && text.charAt(i + 1) == '\'') {
          s.append('\'');
          i += 2;
          continue;
        }
        values.add(s.toString());
        return i + 1;
      }
      s.append(c);
      i++;
    }
    throw new IllegalArgumentException("unterminated string starting at column " + (start + 1));
  }

  private static Object word(String word) {
    if (word.equalsIgnoreCase("NULL")) {
      return null;
    }
    try {
      return Long.parseLong(word);
    } catch (NumberFormatException notInteger) {
      try {
        return new BigDecimal(word);
      } catch (NumberFormatException notNumber) {
        return word;
      }
    }
  }
}
