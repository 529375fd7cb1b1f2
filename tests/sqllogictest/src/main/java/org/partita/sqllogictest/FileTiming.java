package org.partita.sqllogictest;

import java.util.Locale;

/**
 * How long one script file took: the whole file and its slowest record (where, how long). {@link
 * #NONE} when nothing took measurable time (or the clock does not move).
 *
 * @param elapsedNanos wall time of the file, reset and every record included
 * @param slowest the location of the slowest record; null iff no record took any time
 * @param slowestNanos the slowest record's wall time
 */
public record FileTiming(long elapsedNanos, Location slowest, long slowestNanos) {

  /** No time measured. */
  public static final FileTiming NONE = new FileTiming(0, null, 0);

  /** The slowest record's time in seconds. */
  public double slowestSeconds() {
    return slowestNanos / 1e9;
  }

  /** {@code 12.3 s, slowest record f.test:40 0.456 s}. */
  public String describe() {
    final String file = String.format(Locale.ROOT, "%.1f s", elapsedNanos / 1e9);
    return slowest == null ? file
        : String.format(Locale.ROOT, "%s, slowest record %s %.3f s", file, slowest, slowestSeconds());
  }
}
