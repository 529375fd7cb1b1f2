// LatencySummary: a latency distribution summed up in milliseconds, as the
// drivers report it (avg, p50, p95, p99, p99.9, max; and p99.99). All zero when nothing
// was recorded.
//
// Ownership: a value type. Thread model: immutable once made.
#ifndef PARTITA_BENCH_COMMON_LATENCY_SUMMARY_H_
#define PARTITA_BENCH_COMMON_LATENCY_SUMMARY_H_

#include <cstdint>

#include "partita/client/latency_histogram.h"

namespace partita::bench {

struct LatencySummary {
  uint64_t count = 0;
  double avg_ms = 0;
  double p50_ms = 0;
  double p95_ms = 0;
  double p99_ms = 0;
  double p999_ms = 0;
  double max_ms = 0;
  double p9999_ms = 0;  // in the JSON reports only: the text lines stay the Java drivers'

  // The summary of `micros`, a histogram of microseconds.
  static LatencySummary Of(const client::LatencyHistogram& micros);
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_LATENCY_SUMMARY_H_
