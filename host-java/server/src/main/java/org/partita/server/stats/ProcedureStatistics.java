package org.partita.server.stats;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.partita.client.ClientResponse.Status;

/**
 * Counts and latencies of every finished call, per procedure: the figures
 * behind {@code @Statistics PROCEDURE} and {@code LATENCY}.
 *
 * <p>Writers: {@link #record} is called once per finished call on site,
 * coordinator and event-loop threads. After a procedure's first call it costs
 * one hash lookup, a few {@code LongAdder} increments and one HdrHistogram
 * record on a stripe of the calling thread: no lock, no allocation, no
 * contended cache line between partitions.
 *
 * <p>Readers: {@link #sinceStart()} and {@link StatisticsInterval#read()}
 * take one lock shared by readers only. Each {@link StatisticsInterval} keeps
 * its own baseline, so independent readers (one per statistics selector) do
 * not reset each other.
 *
 * <p>Names match case-insensitively; a procedure is reported under the
 * spelling of its first call. At most {@value #MAX_PROCEDURES} names are
 * kept; calls to further names are counted under {@value #OTHER}, so that
 * clients calling endless unknown names cannot exhaust memory.
 *
 * <p>Thread-safe.
 */
public final class ProcedureStatistics {
  /** The most distinct procedure names kept. */
  public static final int MAX_PROCEDURES = 1024;
  /** The name under which calls beyond {@link #MAX_PROCEDURES} names are counted. */
  public static final String OTHER = "(OTHER)";
  // Spellings cached for allocation-free lookup; further spellings are upper-cased per call.
  private static final int MAX_SPELLINGS = 4 * MAX_PROCEDURES;

  private final ConcurrentHashMap<String, ProcedureCounters> bySpelling = new ConcurrentHashMap<>();
  // Guarded by this: creation of entries.
  private final Map<String, ProcedureCounters> byUpperCaseName = new HashMap<>();
  private final List<ProcedureCounters> all = new ArrayList<>();
  private final Object readLock = new Object();
  private final LongSupplier nanoClock;
  private final long startNanos;

  /** Statistics that start now, timed by {@link System#nanoTime()}. */
  public ProcedureStatistics() {
    this(System::nanoTime);
  }

  /** Statistics timed by {@code nanoClock} (a monotonic nanosecond clock), starting now. */
  public ProcedureStatistics(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
  }

  /**
   * Records one finished call of {@code procedure} (null counts as "") that
   * ended with {@code status} after {@code nanos} nanoseconds (negative
   * counts as 0). REQUIRES: status is not null.
   */
  public void record(String procedure, Status status, long nanos) {
    final String name = procedure == null ? "" : procedure;
    ProcedureCounters counters = bySpelling.get(name);
    if (counters == null) {
      counters = counters(name);
    }
    counters.record(status, nanos);
  }

  private synchronized ProcedureCounters counters(String spelling) {
    final String key = spelling.toUpperCase(Locale.ROOT);
    ProcedureCounters counters = byUpperCaseName.get(key);
    if (counters == null) {
      counters = byUpperCaseName.size() < MAX_PROCEDURES ? create(key, spelling) : other();
    }
    if (bySpelling.size() < MAX_SPELLINGS) {
      bySpelling.put(spelling, counters);
    }
    return counters;
  }

  private ProcedureCounters other() {
    final ProcedureCounters existing = byUpperCaseName.get(OTHER);
    return existing != null ? existing : create(OTHER, OTHER);
  }

  private ProcedureCounters create(String key, String spelling) {
    final ProcedureCounters counters = new ProcedureCounters(spelling);
    byUpperCaseName.put(key, counters);
    all.add(counters);
    return counters;
  }

  private synchronized List<ProcedureCounters> entries() {
    return new ArrayList<>(all);
  }

  /** Figures since these statistics started. */
  public StatisticsSnapshot sinceStart() {
    synchronized (readLock) {
      final List<ProcedureFigures> figures = new ArrayList<>();
      final Total total = new Total();
      for (ProcedureCounters counters : entries()) {
        final ProcedureCounters.Totals t = counters.drain();
        figures.add(ProcedureFigures.of(counters.name(), t.calls(), t.totalNanos(), t.latencies()));
        total.add(t.calls(), t.totalNanos(), t.latencies());
      }
      return snapshot(nanoClock.getAsLong() - startNanos, figures, total);
    }
  }

  /**
   * A new reader of interval figures: its first {@link StatisticsInterval#read()}
   * covers everything since these statistics started, each later one the time
   * since its previous read.
   */
  public StatisticsInterval newInterval() {
    return new StatisticsInterval(this, startNanos);
  }

  /** Drains every entry and lets {@code interval} turn the cumulative figures into its period's. */
  StatisticsSnapshot read(StatisticsInterval interval) {
    synchronized (readLock) {
      final List<ProcedureFigures> figures = new ArrayList<>();
      final Total total = new Total();
      for (ProcedureCounters counters : entries()) {
        final ProcedureCounters.Totals delta = interval.advance(counters, counters.drain());
        if (delta != null) {
          figures.add(ProcedureFigures.of(counters.name(), delta.calls(), delta.totalNanos(), delta.latencies()));
          total.add(delta.calls(), delta.totalNanos(), delta.latencies());
        }
      }
      final long now = nanoClock.getAsLong();
      return snapshot(interval.restart(now), figures, total);
    }
  }

  private static StatisticsSnapshot snapshot(long periodNanos, List<ProcedureFigures> figures, Total total) {
    figures.sort((a, b) -> String.CASE_INSENSITIVE_ORDER.compare(a.name(), b.name()));
    return new StatisticsSnapshot(periodNanos, figures,
        ProcedureFigures.of(ProcedureFigures.ALL, total.calls, total.nanos, total.latencies));
  }

  /** Sums over procedures. */
  private static final class Total {
    final long[] calls = new long[Status.values().length];
    final Histogram latencies = new Histogram(LatencyRecorder.SIGNIFICANT_DIGITS);
    long nanos;

    void add(long[] more, long moreNanos, Histogram moreLatencies) {
      for (int i = 0; i < calls.length; i++) {
        calls[i] += more[i];
      }
      nanos += moreNanos;
      latencies.add(moreLatencies);
    }
  }
}
