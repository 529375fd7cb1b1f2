package org.partita.server.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the command line's durations ({@code 10s}, {@code 500ms},
 * {@code 2m}, {@code 1h}; a bare number is milliseconds) and sizes
 * ({@code 512m}, {@code 2g}, {@code 64k}; a bare number is bytes). A value
 * that does not parse, or overflows, is an IllegalArgumentException naming
 * the option and the value. Stateless.
 */
final class Sizes {
  private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m|h)?");
  private static final Pattern SIZE = Pattern.compile("(\\d{1,19})([kmg]?)b?");

  private Sizes() {}

  /** {@code text} as milliseconds, at most Integer.MAX_VALUE. */
  static int millis(String option, String text) {
    final Matcher m = DURATION.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " must be a duration such as 10s, 500ms, 2m or 1h, got '"
          + text + "'");
    }
    final long unit = switch (m.group(2) == null ? "ms" : m.group(2)) {
      case "s" -> 1000L;
      case "m" -> 60_000L;
      case "h" -> 3_600_000L;
      default -> 1L;
    };
    final long value = Long.parseLong(m.group(1));
    if (value > Integer.MAX_VALUE / unit) {
      throw new IllegalArgumentException(option + " of '" + text + "' is too long");
    }
    return (int) (value * unit);
  }

  /** {@code text} as bytes. */
  static long bytes(String option, String text) {
    final Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(option + " must be a size such as 512m, 2g or a number of bytes, got '"
          + text + "'");
    }
    final int shift = switch (m.group(2)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      default -> 0;
    };
    final long value;
    try {
      value = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " of '" + text + "' is too large", e);
    }
    if (value > Long.MAX_VALUE >> shift) {
      throw new IllegalArgumentException(option + " of '" + text + "' is too large");
    }
    return value << shift;
  }
}
