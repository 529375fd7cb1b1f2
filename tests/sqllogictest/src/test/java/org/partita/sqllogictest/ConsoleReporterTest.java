package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConsoleReporterTest {

  private long nanos;

  @Test
  void shouldPrintProgressAboutEveryTenSeconds() {
    final ByteArrayOutputStream progress = new ByteArrayOutputStream();
    final ConsoleReporter reporter = new ConsoleReporter(
        new PrintStream(new ByteArrayOutputStream()), new PrintStream(progress, true), false, 10,
        () -> nanos);
    reporter.startFile();

    nanos += TimeUnit.SECONDS.toNanos(9);
    reporter.recordDone("big.test", 100, 1000);
    nanos += TimeUnit.SECONDS.toNanos(1);
    reporter.recordDone("big.test", 110, 1000);
    nanos += TimeUnit.SECONDS.toNanos(5);
    reporter.recordDone("big.test", 150, 1000);

    assertEquals("big.test: 110 of 1000 records done" + System.lineSeparator(),
        progress.toString(StandardCharsets.UTF_8));
  }

  @Test
  void shouldSummariseAFile() {
    assertEquals("f.test: 3 passed, 1 failed, 2 skipped (75.00%)",
        ConsoleReporter.summary(new FileReport("f.test", 3, 1, 2)));
    assertEquals("e.test: 0 passed, 0 failed, 5 skipped (100.00%)",
        ConsoleReporter.summary(new FileReport("e.test", 0, 0, 5)));
  }
}
