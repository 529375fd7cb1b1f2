#include "kv_report.h"

#include <cmath>

#include "text_format.h"

namespace partita::bench::kv {
namespace {

double Round(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

std::string Count(uint64_t n) { return Grouped(static_cast<int64_t>(n)); }

}  // namespace

std::string KvReport::Text() const {
  const LatencySummary& l = window.latency;
  const KvOptions& o = options;
  std::string s = "kv: " + GroupedFixed(window.Throughput(), 0) + " ops/s over " + Fixed(window.seconds, 1) + " s (" +
                  o.mode + (o.async() ? "" : ", " + std::to_string(o.threads) + " threads") + ", " + o.keys +
                  " keys, " + Fixed(o.get_ratio * 100, 0) + "% gets, " + Grouped(o.value_size) + "-byte values)\n";
  s += "kv: latency ms: avg " + Fixed(l.avg_ms, 3) + ", p50 " + Fixed(l.p50_ms, 3) + ", p95 " + Fixed(l.p95_ms, 3) +
       ", p99 " + Fixed(l.p99_ms, 3) + ", p99.9 " + Fixed(l.p999_ms, 3) + ", max " + Fixed(l.max_ms, 3) + "\n";
  s += "kv: gets " + Count(window.gets) + " (found nothing: " + Count(window.misses) + "), puts " + Count(window.puts) +
       ", failed " + Count(window.failed) + "\n";
  if (!first_failure.empty()) s += "kv: first failure: " + first_failure + "\n";
  if (failures.outcome_unknown + failures.other > 0) {
    s += "kv: failures over the whole run: " + Count(failures.outcome_unknown) +
         " with the outcome unknown (lost connection, timeout, OUTCOME_UNKNOWN), " + Count(failures.other) +
         " others" + (failures.first_other.empty() ? "" : " (first: " + failures.first_other + ")") + "\n";
  }
  for (const std::string& line : pauses) s += line + "\n";
  s += "kv: verification: " + Grouped(verification.checked) + " keys checked, " + Grouped(verification.mismatches) +
       " mismatches, " + Grouped(verification.unverifiable) +
       " unverifiable: " + (consistent() ? "CONSISTENT" : "INCONSISTENT") + "\n";
  for (const std::string& example : verification.examples) s += "kv:   " + example + "\n";
  return s;
}

JsonObject KvReport::Json() const {
  const LatencySummary& l = window.latency;
  std::string servers;
  for (size_t i = 0; i < options.servers.size(); ++i) servers += (i == 0 ? "" : ",") + options.servers[i];
  JsonObject j;
  j.Add("workload", "kv")
      .Add("driver", "cpp")
      .Add("tps", Round(window.Throughput(), 1))
      .Add("avg_ms", Round(l.avg_ms, 4))
      .Add("p50_ms", Round(l.p50_ms, 4))
      .Add("p95_ms", Round(l.p95_ms, 4))
      .Add("p99_ms", Round(l.p99_ms, 4))
      .Add("p999_ms", Round(l.p999_ms, 4))
      .Add("p9999_ms", Round(l.p9999_ms, 4))
      .Add("max_ms", Round(l.max_ms, 4))
      .Add("gets", window.gets)
      .Add("puts", window.puts)
      .Add("get_misses", window.misses)
      .Add("failed", window.failed)
      .Add("failed_outcome_unknown", failures.outcome_unknown)
      .Add("failed_other", failures.other)
      .Add("verified", verification.checked)
      .Add("mismatches", verification.mismatches)
      .Add("unverifiable", verification.unverifiable)
      .Add("consistent", consistent())
      .Add("duration_s", Round(window.seconds, 3))
      .Add("warmup_s", options.warmup_s)
      .Add("mode", options.mode)
      .Add("threads", options.async() ? int64_t{1} : options.threads)
      .Add("ratelimit", options.ratelimit)
      .Add("servers", servers)
      .Add("preload", options.preload)
      .Add("get_ratio", options.get_ratio)
      .Add("key_size", options.key_size)
      .Add("value_size", options.value_size)
      .Add("keys", options.keys);
  return j;
}

}  // namespace partita::bench::kv
