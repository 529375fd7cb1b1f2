// KvReport: what a KV run measured and verified: the report printed at the
// end and the fields of --json, the same as the Java driver's (RunResult),
// with "driver": "cpp".
//
// Ownership: a value type. Thread model: immutable once made.
#ifndef PARTITA_BENCH_KV_KV_REPORT_H_
#define PARTITA_BENCH_KV_KV_REPORT_H_

#include <string>

#include "json_object.h"
#include "kv_operations.h"
#include "kv_options.h"
#include "measurements.h"
#include "verifier.h"

namespace partita::bench::kv {

struct KvReport {
  KvOptions options;
  Measurements::WindowStats window;
  Verifier::Result verification;
  std::string first_failure;  // empty when none
  KvOperations::Failures failures;  // over the whole run (the window's count is window.failed)
  std::vector<std::string> pauses;  // PartitionPauses::Lines, when asked for

  bool consistent() const { return verification.consistent(); }

  // The final report, several lines.
  std::string Text() const;
  JsonObject Json() const;
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KV_REPORT_H_
