// KvOptions: the KV driver's command line, the same options, defaults and
// checks as the Java driver's (bench/kv/README.md, "Driver options").
//
// Ownership: a value type. Thread model: not synchronized.
#ifndef PARTITA_BENCH_KV_KV_OPTIONS_H_
#define PARTITA_BENCH_KV_KV_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "option_parser.h"

namespace partita::bench::kv {

struct KvOptions {
  std::vector<std::string> servers{"127.0.0.1:21212"};
  double duration_s = 30;
  double warmup_s = 5;
  std::string mode = "async";  // "async" or "sync"
  int64_t threads = 16;
  int64_t ratelimit = 0;  // operations/s; 0: as fast as possible
  double display_interval_s = 5;
  std::string json;  // empty: no JSON file
  int64_t preload = 100'000;
  double get_ratio = 0.9;
  int64_t key_size = 32;
  int64_t value_size = 1024;
  std::string keys = "uniform";  // "uniform" or "zipf"
  int64_t verify_sample = 1000;
  int64_t seed = 42;
  std::string partition_pauses = "off";  // "report": each partition's longest pause between successes

  bool async() const { return mode == "async"; }

  // Parses argv into `options`. Returns kHelp (with the usage text in
  // `message`), kError naming the option at fault, or kRun.
  static ParseOutcome Parse(int argc, const char* const* argv, KvOptions* options);

  // The first option out of range, as an error message; empty when all are fine.
  std::string Check() const;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KV_OPTIONS_H_
