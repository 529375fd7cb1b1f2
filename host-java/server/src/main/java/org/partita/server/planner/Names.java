package org.partita.server.planner;

import java.util.Locale;

/** SQL identifiers: case-insensitive (upper-cased) unless double-quoted (exact). */
public final class Names {
  private Names() {}

  public static String normalize(String identifier) {
    if (identifier.length() >= 2 && identifier.startsWith("\"") && identifier.endsWith("\"")) {
      return identifier.substring(1, identifier.length() - 1).replace("\"\"", "\"");
    }
    if (identifier.length() >= 2 && identifier.startsWith("`") && identifier.endsWith("`")) {
      return identifier.substring(1, identifier.length() - 1);
    }
    return identifier.toUpperCase(Locale.ROOT);
  }
}
