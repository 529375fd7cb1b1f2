#include "voter_report.h"

#include "text_format.h"

namespace partita::bench::voter {

std::string VoterReport::Text() const {
  const LatencySummary& l = latency;
  std::string s = "voter: " + settings.description + ", " + Fixed(seconds, 1) + " s measured\n";
  s += "  throughput  " + GroupedFixed(Tps(), 0) + " TPS (" + Grouped(static_cast<int64_t>(measured.answered())) +
       " answered)\n";
  s += "  latency ms  avg " + Fixed(l.avg_ms, 3) + "  p50 " + Fixed(l.p50_ms, 3) + "  p95 " + Fixed(l.p95_ms, 3) +
       "  p99 " + Fixed(l.p99_ms, 3) + "  p99.9 " + Fixed(l.p999_ms, 3) + "  max " + Fixed(l.max_ms, 3) + "\n";
  s += "  outcomes    accepted " + Grouped(static_cast<int64_t>(measured.accepted)) + "  rejected over the limit " +
       Grouped(static_cast<int64_t>(measured.over_limit)) + "  rejected invalid contestant " +
       Grouped(static_cast<int64_t>(measured.invalid)) + "  failed " + Grouped(static_cast<int64_t>(measured.failed)) +
       "\n";
  s += "  standings\n";
  int rank = 1;
  for (const Standings::Entry& e : standings.entries) {
    s += "    " + PadLeft(std::to_string(rank++), 2) + ". " + PadRight(e.name, 24) + " #" +
         PadRight(std::to_string(e.contestant), 3) + " " + PadLeft(Grouped(e.votes), 12) + "\n";
  }
  s += std::string("  consistency ") + (consistency.consistent ? "OK" : "FAILED") +
       ": accepted votes counted by the driver (warm-up and measured) against the database's change\n";
  for (const std::string& line : consistency.lines) s += "    " + line + "\n";
  return s;
}

JsonObject VoterReport::Json() const {
  JsonObject j;
  j.Add("driver", "cpp")
      .Add("tps", Tps())
      .Add("avg_ms", latency.avg_ms)
      .Add("p50_ms", latency.p50_ms)
      .Add("p95_ms", latency.p95_ms)
      .Add("p99_ms", latency.p99_ms)
      .Add("p999_ms", latency.p999_ms)
      .Add("p9999_ms", latency.p9999_ms)
      .Add("max_ms", latency.max_ms)
      .Add("answered", measured.answered())
      .Add("accepted", measured.accepted)
      .Add("over_limit", measured.over_limit)
      .Add("invalid", measured.invalid)
      .Add("failed", measured.failed)
      .Add("consistent", consistency.consistent)
      .Add("duration_s", seconds)
      .Add("mode", settings.mode)
      .Add("threads", settings.threads)
      .Add("ratelimit", settings.ratelimit)
      .Add("servers", settings.servers)
      .Add("partitions", settings.partitions)
      .Add("warmup_s", settings.warmup_s)
      .Add("contestants", settings.contestants)
      .Add("maxvotes", settings.maxvotes);
  return j;
}

}  // namespace partita::bench::voter
