package org.partita.sqllogictest;

/**
 * How a query's formatted values are ordered before they are compared. Sorting compares the
 * formatted strings (byte order, like the reference runner's {@code strcmp}), never the SQL values.
 */
public enum SortMode {
  /** Values are compared in the order the engine returned them. */
  NOSORT("nosort"),
  /** Rows are sorted, comparing column by column as strings; each row's values stay together. */
  ROWSORT("rowsort"),
  /** Every value is sorted on its own, ignoring row boundaries. */
  VALUESORT("valuesort");

  private final String token;

  SortMode(String token) {
    this.token = token;
  }

  /** The word that names this mode in a {@code query} header. */
  public String token() {
    return token;
  }

  /** Returns the mode named {@code token}, or null when {@code token} names none. */
  public static SortMode fromToken(String token) {
    for (final SortMode mode : values()) {
      if (mode.token.equals(token)) {
        return mode;
      }
    }
    return null;
  }
}
