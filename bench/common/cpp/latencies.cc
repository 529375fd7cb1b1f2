#include "latencies.h"

#include <algorithm>

namespace partita::bench {

LatencySummary LatencySummary::Of(const client::LatencyHistogram& micros) {
  LatencySummary s;
  s.count = micros.count();
  if (s.count == 0) return s;
  constexpr double kMicrosPerMs = 1000.0;
  s.avg_ms = micros.Mean() / kMicrosPerMs;
  s.p50_ms = static_cast<double>(micros.Percentile(50)) / kMicrosPerMs;
  s.p95_ms = static_cast<double>(micros.Percentile(95)) / kMicrosPerMs;
  s.p99_ms = static_cast<double>(micros.Percentile(99)) / kMicrosPerMs;
  s.p999_ms = static_cast<double>(micros.Percentile(99.9)) / kMicrosPerMs;
  s.p9999_ms = static_cast<double>(micros.Percentile(99.99)) / kMicrosPerMs;
  s.max_ms = static_cast<double>(micros.max()) / kMicrosPerMs;
  return s;
}

void Latencies::Record(int64_t nanos) {
  constexpr int64_t kNanosPerMicro = 1000;
  const uint64_t micros = static_cast<uint64_t>(
      std::clamp<int64_t>(nanos / kNanosPerMicro, 1, static_cast<int64_t>(client::LatencyHistogram::kMaxMicros)));
  interval_.Record(micros);
  if (measuring_.load(std::memory_order_relaxed)) measured_.Record(micros);
}

LatencySummary Latencies::TakeInterval() {
  const LatencySummary s = LatencySummary::Of(interval_);
  interval_.Reset();
  return s;
}

void Latencies::StartMeasuring() {
  measured_.Reset();
  measuring_.store(true);
}

void Latencies::StopMeasuring() { measuring_.store(false); }

LatencySummary Latencies::Measured() const { return LatencySummary::Of(measured_); }

}  // namespace partita::bench
