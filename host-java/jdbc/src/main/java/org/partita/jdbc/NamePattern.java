package org.partita.jdbc;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A DatabaseMetaData name pattern: {@code %} any run of characters,
 * {@code _} any one character, {@code \} escapes the next; null matches
 * every name. Matching ignores case (Partita keeps unquoted names
 * upper-cased). Immutable.
 */
final class NamePattern {
  private final Pattern regex;

  private NamePattern(Pattern regex) {
    this.regex = regex;
  }

  static NamePattern of(String pattern) {
    if (pattern == null) {
      return new NamePattern(null);
    }
    final StringBuilder b = new StringBuilder();
    for (int i = 0; i < pattern.length(); i++) {
      final char c = pattern.charAt(i);
      if (c == '\\' && i + 1 < pattern.length()) {
        b.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
      } else if (c == '%') {
        b.append(".*");
      } else if (c == '_') {
        b.append('.');
      } else {
        b.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return new NamePattern(Pattern.compile(b.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
  }

  boolean matches(String name) {
    return regex == null || (name != null && regex.matcher(name).matches());
  }

  /** Whether {@code value} is null or equals {@code name} ignoring case (for non-pattern arguments). */
  static boolean exact(String value, String name) {
    return value == null || value.toUpperCase(Locale.ROOT).equals(name.toUpperCase(Locale.ROOT));
  }
}
