package org.partita.bench.kv;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a run measured and verified: the report printed at the end and the
 * fields of {@code --json}. Immutable.
 */
public record RunResult(KvSettings settings, Measurements.WindowStats window, Verifier.Result verification,
    String firstFailure) {
  public boolean consistent() {
    return verification.consistent();
  }

  /** The final report, several lines. */
  public String toText() {
    final LatencyStats l = window.latency();
    final StringBuilder s = new StringBuilder();
    s.append(String.format("kv: %,.0f ops/s over %.1f s (%s%s, %s keys, %.0f%% gets, %,d-byte values)%n",
        window.throughput(), window.seconds(), settings.modeName(),
        settings.mode() == KvSettings.Mode.SYNC ? ", " + settings.threads() + " threads" : "",
        settings.keysName(), settings.getRatio() * 100, settings.valueSize()));
    s.append(String.format("kv: latency ms: avg %.3f, p50 %.3f, p95 %.3f, p99 %.3f, p99.9 %.3f, max %.3f%n",
        l.avgMs(), l.p50Ms(), l.p95Ms(), l.p99Ms(), l.p999Ms(), l.maxMs()));
    s.append(String.format("kv: gets %,d (found nothing: %,d), puts %,d, failed %,d%n", window.gets(),
        window.misses(), window.puts(), window.failed()));
    if (firstFailure != null) {
      s.append("kv: first failure: ").append(firstFailure).append('\n');
    }
    s.append(String.format("kv: verification: %,d keys checked, %,d mismatches, %,d unverifiable: %s%n",
        verification.checked(), verification.mismatches(), verification.unverifiable(),
        consistent() ? "CONSISTENT" : "INCONSISTENT"));
    for (String example : verification.examples()) {
      s.append("kv:   ").append(example).append('\n');
    }
    return s.toString();
  }

  /** The {@code --json} document's fields, in a stable order. */
  public Map<String, Object> toJson() {
    final LatencyStats l = window.latency();
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", "kv");
    m.put("driver", "java");
    m.put("tps", round(window.throughput(), 1));
    m.put("avg_ms", round(l.avgMs(), 4));
    m.put("p50_ms", round(l.p50Ms(), 4));
    m.put("p95_ms", round(l.p95Ms(), 4));
    m.put("p99_ms", round(l.p99Ms(), 4));
    m.put("p999_ms", round(l.p999Ms(), 4));
    m.put("max_ms", round(l.maxMs(), 4));
    m.put("gets", window.gets());
    m.put("puts", window.puts());
    m.put("get_misses", window.misses());
    m.put("failed", window.failed());
    m.put("verified", verification.checked());
    m.put("mismatches", verification.mismatches());
    m.put("unverifiable", verification.unverifiable());
    m.put("consistent", consistent());
    m.put("duration_s", round(window.seconds(), 3));
    m.put("warmup_s", settings.warmupSeconds());
    m.put("mode", settings.modeName());
    m.put("threads", settings.mode() == KvSettings.Mode.SYNC ? settings.threads() : 1);
    m.put("ratelimit", settings.rateLimit());
    m.put("servers", String.join(",", settings.servers()));
    m.put("preload", settings.preload());
    m.put("get_ratio", settings.getRatio());
    m.put("key_size", settings.keySize());
    m.put("value_size", settings.valueSize());
    m.put("keys", settings.keysName());
    return m;
  }

  private static double round(double value, int decimals) {
    final double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
