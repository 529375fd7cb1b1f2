// LatencyHistogram: a log-linear histogram of latencies in microseconds, in
// the manner of HdrHistogram: values below 2,048 are counted exactly; above,
// each power of two is split into 1,024 equal buckets, so every value is
// kept to within 1/1,024 (three significant digits). Values from 0 to one
// hour; larger ones are counted as one hour.
//
// Ownership: owns its counters (about 190 KB). Thread model: Record() is
// lock-free (relaxed atomics) from any number of threads; readers see a
// consistent-enough view while recording goes on (each counter is exact,
// the set of counters may be a few calls apart). Reset() while others record
// may lose those few records.
#ifndef PARTITA_CLIENT_LATENCY_HISTOGRAM_H_
#define PARTITA_CLIENT_LATENCY_HISTOGRAM_H_

#include <atomic>
#include <cstdint>
#include <memory>

namespace partita::client {

class LatencyHistogram final {
 public:
  static constexpr uint64_t kMaxMicros = 3'600'000'000ULL;

  LatencyHistogram();
  LatencyHistogram(const LatencyHistogram&) = delete;
  LatencyHistogram& operator=(const LatencyHistogram&) = delete;

  void Record(uint64_t micros);
  // Adds every count of `other` to this one.
  void Merge(const LatencyHistogram& other);
  void Reset();

  uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  uint64_t max() const { return max_.load(std::memory_order_relaxed); }
  double Mean() const;
  // The smallest recorded value v such that at least `percentile`% of the
  // values are <= v (to within the bucket width); 0 when empty.
  // REQUIRES: 0 <= percentile <= 100.
  uint64_t Percentile(double percentile) const;

  // Bucket arithmetic, public for tests.
  static size_t IndexOf(uint64_t micros);
  static uint64_t HighestEquivalent(size_t index);

 private:
  static constexpr int kSubBits = 10;
  static constexpr uint64_t kExact = 2ULL << kSubBits;  // 2,048 exact values
  static constexpr size_t kBuckets = kExact + 22 * (1ULL << kSubBits);

  std::unique_ptr<std::atomic<uint64_t>[]> counts_;
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_{0};
  std::atomic<uint64_t> max_{0};
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_LATENCY_HISTOGRAM_H_
