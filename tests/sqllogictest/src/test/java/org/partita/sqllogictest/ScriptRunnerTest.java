package org.partita.sqllogictest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
    return new ScriptRunner(target, collector).run(SAMPLE, ScriptParser.parse(SAMPLE, text));
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
