// VoterReport: the Voter driver's final report: throughput, latency and
// outcomes of the measured period, the standings and the consistency check,
// as text and as the JSON object of --json. The same lines and fields as
// the Java driver's report, with "driver": "cpp".
//
// Ownership: a value type. Thread model: immutable once made.
#ifndef PARTITA_BENCH_VOTER_VOTER_REPORT_H_
#define PARTITA_BENCH_VOTER_VOTER_REPORT_H_

#include <cstdint>
#include <string>

#include "consistency.h"
#include "json_object.h"
#include "latency_summary.h"
#include "standings.h"

namespace partita::bench::voter {

struct VoterReport {
  // What was run, as the JSON carries it.
  struct Settings {
    std::string description;  // "async firehose against 127.0.0.1:21212 (2 partition(s))"
    std::string mode;
    int64_t threads = 1;
    int64_t ratelimit = 0;
    std::string servers;
    int64_t partitions = 0;
    double warmup_s = 0;
    int64_t contestants = 0;
    int64_t maxvotes = 0;
  };
  // The measured period's outcomes.
  struct Counts {
    uint64_t accepted = 0;
    uint64_t over_limit = 0;
    uint64_t invalid = 0;
    uint64_t failed = 0;
    uint64_t answered() const { return accepted + over_limit + invalid; }
  };

  Settings settings;
  double seconds = 0;  // the measured period, from its first call to its last answer
  LatencySummary latency;
  Counts measured;
  Standings standings;
  Consistency consistency;

  // Vote calls answered by Vote (accepted or rejected) per second of the measured period.
  double Tps() const { return seconds > 0 ? static_cast<double>(measured.answered()) / seconds : 0; }

  std::string Text() const;
  JsonObject Json() const;
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_VOTER_REPORT_H_
