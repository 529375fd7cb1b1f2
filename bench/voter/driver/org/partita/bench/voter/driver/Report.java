package org.partita.bench.voter.driver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The driver's final report: throughput, latency, outcomes of the measured
 * period, the standings and the consistency check, as text and as one JSON
 * object. Immutable once made.
 *
 * @param settings what was run (mode, threads, servers, ...), as they go into the JSON
 * @param seconds length of the measured period, from its first call to its last answer
 * @param latency the measured period's latencies in µs
 * @param warmup the warm-up's outcomes
 * @param measured the measured period's outcomes
 * @param standings the standings at the end
 * @param consistency the check over warm-up and measured period
 */
record Report(Map<String, Object> settings, double seconds, Histogram latency, Outcomes warmup, Outcomes measured,
    Standings standings, Consistency consistency) {

  /** Vote calls answered with SUCCESS per second of the measured period. */
  double tps() {
    return measured.answered() / seconds;
  }

  void print(PrintStream out) {
    out.printf("voter: %s, %.1f s measured%n", settings.get("description"), seconds);
    out.printf("  throughput  %,.0f TPS (%,d answered)%n", tps(), measured.answered());
    out.printf("  latency ms  avg %.3f  p50 %.3f  p95 %.3f  p99 %.3f  p99.9 %.3f  max %.3f%n",
        latency.getMean() / 1000, ms(50), ms(95), ms(99), ms(99.9), latency.getMaxValue() / 1000.0);
    out.printf("  outcomes    accepted %,d  rejected over the limit %,d  rejected invalid contestant %,d"
        + "  failed %,d%n", measured.accepted(), measured.overLimit(), measured.invalid(), measured.failed());
    out.printf("  warm-up     accepted %,d  failed %,d (not in the figures above)%n", warmup.accepted(),
        warmup.failed());
    out.println("  standings");
    int rank = 1;
    for (Map.Entry<Integer, Long> e : standings.votesByContestant().entrySet()) {
      out.printf("    %2d. %-24s #%-3d %,12d%n", rank++, standings.names().get(e.getKey()), e.getKey(), e.getValue());
    }
    out.println("  consistency " + (consistency.consistent() ? "OK" : "FAILED")
        + ": accepted votes counted by the driver (warm-up and measured) against the database's change");
    for (String line : consistency.lines()) {
      out.println("    " + line);
    }
    final long failed = warmup.failed() + measured.failed();
    if (!consistency.consistent() && failed > 0) {
      out.printf("    %,d call(s) failed (%,d in the warm-up); a call that timed out or lost its connection"
          + " may still have committed%n", failed, warmup.failed());
    }
  }

  private double ms(double percentile) {
    return latency.getTotalCount() == 0 ? 0 : latency.getValueAtPercentile(percentile) / 1000.0;
  }

  /** The JSON object of {@code --json}. */
  Map<String, Object> json() {
    final Map<String, Object> j = new LinkedHashMap<>();
    j.put("driver", "java");
    j.put("tps", tps());
    j.put("avg_ms", latency.getTotalCount() == 0 ? 0.0 : latency.getMean() / 1000);
    j.put("p50_ms", ms(50));
    j.put("p95_ms", ms(95));
    j.put("p99_ms", ms(99));
    j.put("p999_ms", ms(99.9));
    j.put("max_ms", latency.getMaxValue() / 1000.0);
    j.put("answered", measured.answered());
    j.put("accepted", measured.accepted());
    j.put("over_limit", measured.overLimit());
    j.put("invalid", measured.invalid());
    j.put("failed", measured.failed());
    j.put("warmup_accepted", warmup.accepted());
    j.put("warmup_failed", warmup.failed());
    j.put("consistent", consistency.consistent());
    j.put("duration_s", seconds);
    settings.forEach((k, v) -> {
      if (!k.equals("description")) {
        j.put(k, v);
      }
    });
    return j;
  }

  void writeJson(Path file) throws IOException {
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json());
  }
}
