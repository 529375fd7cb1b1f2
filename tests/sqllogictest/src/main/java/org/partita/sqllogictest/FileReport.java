package org.partita.sqllogictest;

/**
 * The outcome of one script file. {@code passed + failed + skipped} is the number of statement,
 * query and malformed records in the file; {@code hash-threshold} and {@code halt} are not counted.
 * Records skipped by a condition or left after a {@code halt} are {@code skipped}. A record that
 * ran past the time limit, and every record after it when the target could not be stopped, is
 * {@code failed}.
 */
public record FileReport(String file, int passed, int failed, int skipped, FileTiming timing) {

  /** A report without timings. */
  public FileReport(String file, int passed, int failed, int skipped) {
    this(file, passed, failed, skipped, FileTiming.NONE);
  }

  /** Percentage of the records that ran which passed; 100 when none ran. */
  public double passRate() {
    final int ran = passed + failed;
    return ran == 0 ? 100.0 : 100.0 * passed / ran;
  }
}
