package org.partita.server.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse.Status;

class ProcedureStatisticsTest {
  private static final long MICROS = 1000;

  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final ProcedureStatistics stats = new ProcedureStatistics(clock::get);

  private static ProcedureFigures named(StatisticsSnapshot s, String name) {
    return s.procedures().stream().filter(f -> f.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no figures for " + name + " in " + s.procedures()));
  }

  /** Within the histogram's two significant digits. */
  private static void assertNear(long expected, long actual, String what) {
    assertTrue(Math.abs(expected - actual) <= Math.max(1, expected / 100), what + ": expected ~" + expected
        + ", got " + actual);
  }

  @Test
  void shouldCountCallsByStatus() {
    stats.record("Vote", Status.SUCCESS, 10 * MICROS);
    stats.record("Vote", Status.SUCCESS, 10 * MICROS);
    stats.record("Vote", Status.USER_ABORT, 10 * MICROS);
    stats.record("Vote", Status.GRACEFUL_FAILURE, 10 * MICROS);
    stats.record("Vote", Status.REJECTED, 10 * MICROS);
    stats.record("Vote", Status.UNEXPECTED_FAILURE, 10 * MICROS);
    final ProcedureFigures vote = named(stats.sinceStart(), "Vote");
    assertEquals(6, vote.invocations());
    assertEquals(1, vote.userAborts());
    assertEquals(1, vote.gracefulFailures());
    assertEquals(1, vote.rejected());
    assertEquals(1, vote.unexpectedFailures());
    assertEquals(4, vote.failures());
  }

  @Test
  void shouldComputeLatencyPercentilesMinMaxAndExactAverage() {
    for (int i = 1; i <= 1000; i++) {
      stats.record("p", Status.SUCCESS, i * MICROS);
    }
    final ProcedureFigures p = named(stats.sinceStart(), "p");
    assertEquals(1, p.minMicros());
    assertEquals(500.5, p.avgMicros(), 1e-9);
    assertNear(500, p.p50Micros(), "p50");
    assertNear(950, p.p95Micros(), "p95");
    assertNear(990, p.p99Micros(), "p99");
    assertNear(999, p.p999Micros(), "p99.9");
    assertNear(1000, p.maxMicros(), "max");
  }

  @Test
  void shouldMatchNamesIgnoringCaseUnderTheFirstSpelling() {
    stats.record("Vote", Status.SUCCESS, MICROS);
    stats.record("VOTE", Status.SUCCESS, MICROS);
    stats.record("vote", Status.SUCCESS, MICROS);
    final StatisticsSnapshot s = stats.sinceStart();
    assertEquals(1, s.procedures().size());
    assertEquals(3, named(s, "Vote").invocations());
  }

  @Test
  void shouldTotalEveryProcedure() {
    stats.record("a", Status.SUCCESS, 5 * MICROS);
    stats.record("b", Status.REJECTED, 15 * MICROS);
    final ProcedureFigures total = stats.sinceStart().total();
    assertEquals(ProcedureFigures.ALL, total.name());
    assertEquals(2, total.invocations());
    assertEquals(1, total.rejected());
    assertEquals(10.0, total.avgMicros(), 1e-9);
    assertEquals(5, total.minMicros());
    assertNear(15, total.maxMicros(), "max");
  }

  @Test
  void shouldReportOnlyTheCallsSinceThePreviousIntervalRead() {
    final StatisticsInterval interval = stats.newInterval();
    stats.record("a", Status.SUCCESS, 100 * MICROS);
    stats.record("b", Status.SUCCESS, 100 * MICROS);
    assertEquals(2, interval.read().total().invocations());
    stats.record("a", Status.SUCCESS, 7 * MICROS);
    final StatisticsSnapshot second = interval.read();
    assertEquals(1, second.total().invocations());
    assertEquals(List.of("a"), second.procedures().stream().map(ProcedureFigures::name).toList(),
        "a procedure without calls in the interval is left out");
    assertEquals(7, named(second, "a").maxMicros(), "the earlier 100 µs call is not in this interval");
    assertEquals(0, interval.read().total().invocations());
    assertEquals(3, stats.sinceStart().total().invocations(), "interval reads do not reset since-start figures");
  }

  @Test
  void shouldKeepIndependentBaselinesPerInterval() {
    final StatisticsInterval first = stats.newInterval();
    final StatisticsInterval second = stats.newInterval();
    stats.record("a", Status.SUCCESS, MICROS);
    assertEquals(1, first.read().total().invocations());
    assertEquals(1, second.read().total().invocations(), "the first reader's read does not reset the second");
  }

  @Test
  void shouldMeasureThroughputOverTheInterval() {
    final StatisticsInterval interval = stats.newInterval();
    interval.read();
    for (int i = 0; i < 500; i++) {
      stats.record("a", Status.SUCCESS, MICROS);
    }
    clock.addAndGet(2_000_000_000L);
    final StatisticsSnapshot s = interval.read();
    assertEquals(2_000_000_000L, s.periodNanos());
    assertEquals(250.0, s.throughputPerSecond(), 1e-9);
  }

  @Test
  void shouldReportZeroLatencyWithoutCalls() {
    final StatisticsSnapshot s = stats.sinceStart();
    assertEquals(0, s.total().invocations());
    assertEquals(0, s.total().p99Micros());
    assertEquals(0.0, s.total().avgMicros());
    assertEquals(0, s.procedures().size());
  }

  @Test
  void shouldFoldNamesBeyondTheLimitIntoOther() {
    for (int i = 0; i < ProcedureStatistics.MAX_PROCEDURES + 10; i++) {
      stats.record("p" + i, Status.REJECTED, MICROS);
    }
    final StatisticsSnapshot s = stats.sinceStart();
    assertEquals(ProcedureStatistics.MAX_PROCEDURES + 1, s.procedures().size());
    assertEquals(10, named(s, ProcedureStatistics.OTHER).invocations());
    assertEquals(ProcedureStatistics.MAX_PROCEDURES + 10, s.total().invocations());
  }

  @Test
  void shouldCountNullNameAndNegativeLatencyWithoutFailing() {
    stats.record(null, Status.SUCCESS, -5);
    final ProcedureFigures f = named(stats.sinceStart(), "");
    assertEquals(1, f.invocations());
    assertEquals(0, f.maxMicros());
  }

  @Test
  @Timeout(30)
  void shouldLoseNoCallRecordedConcurrentlyWithReads() throws Exception {
    final int threads = 4;
    final int perThread = 50_000;
    final CountDownLatch start = new CountDownLatch(1);
    final List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      final String name = t % 2 == 0 ? "even" : "odd";
      final Thread w = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < perThread; i++) {
          stats.record(name, i % 10 == 0 ? Status.USER_ABORT : Status.SUCCESS, (i % 100 + 1) * MICROS);
        }
      });
      w.start();
      writers.add(w);
    }
    final StatisticsInterval interval = stats.newInterval();
    long seenByInterval = 0;
    start.countDown();
    for (Thread w : writers) {
      while (w.isAlive()) {
        seenByInterval += interval.read().total().invocations();
        w.join(1);
      }
    }
    seenByInterval += interval.read().total().invocations();
    final StatisticsSnapshot all = stats.sinceStart();
    assertEquals((long) threads * perThread, all.total().invocations());
    assertEquals((long) threads * perThread, seenByInterval, "intervals add up to the whole");
    assertEquals((long) threads * perThread / 10, all.total().userAborts());
    assertEquals(2L * perThread, named(all, "even").invocations());
    assertEquals(1, all.total().minMicros());
    assertNear(100, all.total().maxMicros(), "max");
  }
}
