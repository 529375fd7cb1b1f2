package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.partita.client.ValueType;

class ScriptRunnerTest {

  private static final String SAMPLE = "sample.test";

  static String sampleText() throws IOException {
    try (InputStream in = ScriptRunnerTest.class.getResourceAsStream("/scripts/sample.test")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static final class Collector implements RunListener {
    final List<Failure> failures = new ArrayList<>();
    int lastDone;

    @Override
    public void failed(Failure failure) {
      failures.add(failure);
    }

    @Override
    public void recordDone(String file, int done, int total) {
      lastDone = done;
    }
  }

  private static FileReport run(ScriptedTarget target, String text, Collector collector) {
    return new ScriptRunner(target, collector, Duration.ofSeconds(60), () -> 0L)
        .run(SAMPLE, ScriptParser.parse(SAMPLE, text));
  }

  /**
   * A target whose {@code SELECT hang()} blocks until released: by {@link #cancel()} when {@code
   * cancellable}, else only by the test at its end.
   */
  private static final class HangingTarget implements SqlTarget {
    final CountDownLatch release = new CountDownLatch(1);
    final boolean cancellable;
    final List<String> executed = new java.util.concurrent.CopyOnWriteArrayList<>();
    volatile int cancels;

    HangingTarget(boolean cancellable) {
      this.cancellable = cancellable;
    }

    @Override
    public StatementResult execute(String sql) {
      executed.add(sql);
      if (!sql.equals("SELECT hang()")) {
        return StatementResult.ok();
      }
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return StatementResult.error("cancelled");
    }

    @Override
    public boolean cancel() {
      cancels++;
      if (cancellable) {
        release.countDown();
      }
      return cancellable;
    }

    @Override
    public void reset() {}

    @Override
    public void close() {}
  }

  private static final String HANGS_THEN_MORE =
      "statement ok\nSELECT hang()\n\nstatement ok\nSELECT 'after'\n\nstatement ok\nSELECT 'last'\n";

  @Test
  void shouldFailARecordPastItsTimeLimitAndGoOnWhenTheTargetCancels() {
    final HangingTarget target = new HangingTarget(true);
    final Collector collector = new Collector();
    final FileReport report = new ScriptRunner(target, collector, Duration.ofMillis(50), Duration.ofSeconds(30),
        System::nanoTime).run(SAMPLE, ScriptParser.parse(SAMPLE, HANGS_THEN_MORE));

    assertEquals(2, report.passed());
    assertEquals(1, report.failed());
    assertEquals(1, target.cancels);
    assertEquals(List.of("SELECT hang()", "SELECT 'after'", "SELECT 'last'"), target.executed);
    assertTrue(collector.failures.get(0).reason().startsWith("timed out after 0.050 s"),
        collector.failures.get(0).reason());
    assertEquals(1, collector.failures.get(0).location().line());
  }

  @Test
  void shouldFailTheRestOfTheFileWhenTheTargetCannotStop() {
    final HangingTarget target = new HangingTarget(false);
    final Collector collector = new Collector();
    try {
      final FileReport report = new ScriptRunner(target, collector, Duration.ofMillis(50),
          Duration.ofMillis(50), System::nanoTime).run(SAMPLE, ScriptParser.parse(SAMPLE, HANGS_THEN_MORE));

      assertEquals(new FileReport(SAMPLE, 0, 3, 0), new FileReport(SAMPLE, report.passed(), report.failed(),
          report.skipped()));
      assertEquals(List.of("SELECT hang()"), target.executed);
      assertTrue(collector.failures.get(0).reason().contains("did not stop"), collector.failures.get(0).reason());
      assertEquals("not run: the statement at sample.test:1 timed out and did not stop",
          collector.failures.get(1).reason());
    } finally {
      target.release.countDown();
    }
  }

  @Test
  void shouldReportTheFileTimeAndItsSlowestRecord() {
    final long[] now = {0};
    final SqlTarget target = new SqlTarget() {
      @Override
      public StatementResult execute(String sql) {
        now[0] += sql.equals("SELECT 'slow'") ? 5_000_000_000L : 1_000_000L;
        return StatementResult.ok();
      }

      @Override
      public void reset() {}

      @Override
      public void close() {}
    };
    final FileReport report = new ScriptRunner(target, new Collector(), Duration.ofSeconds(60), () -> now[0])
        .run(SAMPLE, ScriptParser.parse(SAMPLE,
            "statement ok\nSELECT 'fast'\n\nstatement ok\nSELECT 'slow'\n\nstatement ok\nSELECT 'fast'\n"));

    assertEquals(new Location(SAMPLE, 4), report.timing().slowest());
    assertEquals(5.0, report.timing().slowestSeconds(), 1e-9);
    assertEquals(5_002_000_000L, report.timing().elapsedNanos());
  }

  @Test
  void shouldCountPassesFailuresAndSkipsOfTheSampleScript() throws IOException {
    final Collector collector = new Collector();
    final FileReport report = run(ScriptedTarget.forSample(), sampleText(), collector);

    assertEquals(new FileReport(SAMPLE, 8, 6, 3), report);
    assertEquals(100.0 * 8 / 14, report.passRate(), 1e-9);
    final List<Integer> failedLines =
        collector.failures.stream().map(f -> f.location().line()).collect(Collectors.toList());
    assertEquals(List.of(10, 17, 24, 28, 46, 73), failedLines);
  }

  @Test
  void shouldExplainEachKindOfFailure() throws IOException {
    final Collector collector = new Collector();
    run(ScriptedTarget.forSample(), sampleText(), collector);
    final List<String> reasons =
        collector.failures.stream().map(Failure::reason).collect(Collectors.toList());

    assertEquals("statement failed", reasons.get(0));
    assertEquals("statement succeeded but an error was expected", reasons.get(1));
    assertEquals("statement failed with a different error", reasons.get(2));
    assertTrue(reasons.get(3).startsWith("target threw java.lang.IllegalStateException"));
    assertEquals("wrong result", reasons.get(4));
    assertEquals("3", collector.failures.get(4).expected());
    assertEquals("2", collector.failures.get(4).actual());
    assertTrue(reasons.get(5).startsWith("result differs from label-ab at sample.test:39"));
  }

  @Test
  void shouldResetTheTargetAndStopAtHalt() throws IOException {
    final ScriptedTarget target = ScriptedTarget.forSample();
    final Collector collector = new Collector();
    run(target, sampleText(), collector);

    assertEquals(1, target.resets);
    assertTrue(target.executed.contains("SELECT 'runs'"));
    assertFalse(target.executed.contains("SELECT 'after halt'"));
    assertFalse(target.executed.contains("SELECT 'skipped'"));
    assertFalse(target.executed.contains("SELECT 'skipped too'"));
    assertEquals(ScriptParser.parse(SAMPLE, sampleText()).size(), collector.lastDone);
  }

  @Test
  void shouldFailQueryThatReturnsAnError() {
    final ScriptedTarget target =
        new ScriptedTarget().answer("SELECT x", StatementResult.error("no column x"));
    final Collector collector = new Collector();
    final FileReport report = run(target, "query I nosort\nSELECT x\n----\n1\n", collector);

    assertEquals(1, report.failed());
    assertEquals("query failed: no column x", collector.failures.get(0).reason());
  }

  @Test
  void shouldFailQueryWithTheWrongNumberOfColumns() {
    final ScriptedTarget target = new ScriptedTarget()
        .answer("SELECT 1, 2", StatementResult.rows(
            ResultRows.builder(ValueType.BIGINT, ValueType.BIGINT).row(1L, 2L).build()));
    final Collector collector = new Collector();
    final FileReport report = run(target, "query I nosort\nSELECT 1, 2\n----\n1\n2\n", collector);

    assertEquals(1, report.failed());
    assertEquals("expected 1 columns, got 2", collector.failures.get(0).reason());
  }

  @Test
  void shouldPassQueryWithoutExpectedResultsWhenItSucceeds() {
    final ScriptedTarget target = new ScriptedTarget()
        .answer("SELECT 1", StatementResult.rows(ResultRows.builder(ValueType.BIGINT).row(1L).build()));
    final FileReport report = run(target, "query I nosort\nSELECT 1\n", new Collector());

    assertEquals(new FileReport(SAMPLE, 1, 0, 0), report);
  }

  @Test
  void shouldCountMalformedRecordsAsFailures() {
    final Collector collector = new Collector();
    final FileReport report = run(new ScriptedTarget(), "query X\nSELECT 1\n", collector);

    assertEquals(new FileReport(SAMPLE, 0, 1, 0), report);
    assertTrue(collector.failures.get(0).reason().startsWith("malformed record"));
  }
}
