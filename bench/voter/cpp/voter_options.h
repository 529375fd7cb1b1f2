// VoterOptions: the Voter driver's command line, the same options, defaults
// and checks as the Java driver's (bench/voter/README.md, "Driver options").
//
// Ownership: a value type. Thread model: not synchronized.
#ifndef PARTITA_BENCH_VOTER_VOTER_OPTIONS_H_
#define PARTITA_BENCH_VOTER_VOTER_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "option_parser.h"

namespace partita::bench::voter {

struct VoterOptions {
  static constexpr int kMaxContestants = 1000;

  std::vector<std::string> servers{"127.0.0.1:21212"};
  double duration_s = 30;
  double warmup_s = 5;
  std::string mode = "async";  // "async" or "sync"
  int64_t threads = 16;
  int64_t ratelimit = 0;  // calls/s; 0: as fast as possible
  int64_t contestants = 6;
  int64_t maxvotes = 2;
  double display_interval_s = 5;
  std::string json;  // empty: no JSON file

  bool async() const { return mode == "async"; }

  // Parses argv into `options`. Returns kHelp (with the usage text in
  // `message`), kError naming the option at fault, or kRun.
  static ParseOutcome Parse(int argc, const char* const* argv, VoterOptions* options);

  // The first option out of range, as an error message; empty when all are fine.
  std::string Check() const;
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_VOTER_OPTIONS_H_
