package org.partita.sqllogictest;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Prints a run for people: failures as they happen (one line each, or with {@code verbose} the SQL
 * and expected versus actual), at most {@code maxFailuresShown} per file; a progress line on the
 * error stream every {@value #PROGRESS_INTERVAL_SECONDS} seconds within a long file; a summary line
 * per file. Not thread-safe.
 */
final class ConsoleReporter implements RunListener {

  static final long PROGRESS_INTERVAL_SECONDS = 10;
  /** Expected and actual listings longer than this are cut, saying how much was left out. */
  private static final int MAX_LINES_SHOWN = 40;

  private final PrintStream out;
  private final PrintStream progress;
  private final boolean verbose;
  private final int maxFailuresShown;
  private final LongSupplier nanoClock;
  private int failuresInFile;
  private long lastProgressNanos;

  ConsoleReporter(
      PrintStream out, PrintStream progress, boolean verbose, int maxFailuresShown,
      LongSupplier nanoClock) {
    this.out = out;
    this.progress = progress;
    this.verbose = verbose;
    this.maxFailuresShown = maxFailuresShown;
    this.nanoClock = nanoClock;
  }

  /** Called before each file. */
  void startFile() {
    failuresInFile = 0;
    lastProgressNanos = nanoClock.getAsLong();
  }

  @Override
  public void recordDone(String file, int done, int total) {
    final long now = nanoClock.getAsLong();
    if (now - lastProgressNanos >= TimeUnit.SECONDS.toNanos(PROGRESS_INTERVAL_SECONDS)) {
      lastProgressNanos = now;
      progress.printf(Locale.ROOT, "%s: %d of %d records done%n", file, done, total);
    }
  }

  @Override
  public void failed(Failure failure) {
    failuresInFile++;
    if (failuresInFile > maxFailuresShown) {
      return;
    }
    out.println(failure.location() + ": " + failure.reason());
    if (!verbose) {
      return;
    }
    printBlock("sql", failure.sql());
    printBlock("expected", failure.expected());
    printBlock("actual", failure.actual());
  }

  /** Prints the summary line of {@code report}. */
  void fileDone(FileReport report) {
    if (failuresInFile > maxFailuresShown) {
      out.printf("  (%d more failures not shown)%n", failuresInFile - maxFailuresShown);
    }
    out.println(summary(report));
  }

  /**
   * {@code file: P passed, F failed, S skipped (xx.x%)}, then {@code in T s, slowest record
   * file:line R s} when the report has timings.
   */
  static String summary(FileReport report) {
    final String counts = String.format(Locale.ROOT, "%s: %d passed, %d failed, %d skipped (%.2f%%)",
        report.file(), report.passed(), report.failed(), report.skipped(), report.passRate());
    return report.timing().equals(FileTiming.NONE) ? counts : counts + " in " + report.timing().describe();
  }

  private void printBlock(String title, String text) {
    out.println("  " + title + ":");
    final String[] lines = text.split("\n", -1);
    final int shown = Math.min(lines.length, MAX_LINES_SHOWN);
    for (int i = 0; i < shown; i++) {
      out.println("    " + lines[i]);
    }
    if (lines.length > shown) {
      out.printf("    ... (%d more lines)%n", lines.length - shown);
    }
  }
}
