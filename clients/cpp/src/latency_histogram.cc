#include "partita/client/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace partita::client {

LatencyHistogram::LatencyHistogram() : counts_(new std::atomic<uint64_t>[kBuckets]) { Reset(); }

size_t LatencyHistogram::IndexOf(uint64_t micros) {
  const uint64_t v = std::min(micros, kMaxMicros);
  if (v < kExact) return static_cast<size_t>(v);
  const int shift = std::bit_width(v) - (kSubBits + 1);  // >= 1: v has at least 12 bits
  const uint64_t mantissa = v >> shift;                  // in [1024, 2047]
  return kExact + (shift - 1) * (1ULL << kSubBits) + (mantissa - (1ULL << kSubBits));
}

uint64_t LatencyHistogram::HighestEquivalent(size_t index) {
  if (index < kExact) return index;
  const uint64_t k = index - kExact;
  const int shift = static_cast<int>(k >> kSubBits) + 1;
  const uint64_t mantissa = (k & ((1ULL << kSubBits) - 1)) + (1ULL << kSubBits);
  return (mantissa << shift) + (1ULL << shift) - 1;
}

void LatencyHistogram::Record(uint64_t micros) {
  counts_[IndexOf(micros)].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(micros, std::memory_order_relaxed);
  uint64_t seen = max_.load(std::memory_order_relaxed);
  while (micros > seen && !max_.compare_exchange_weak(seen, micros, std::memory_order_relaxed)) {
  }
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBuckets; ++i) {
    const uint64_t n = other.counts_[i].load(std::memory_order_relaxed);
    if (n != 0) counts_[i].fetch_add(n, std::memory_order_relaxed);
  }
  count_.fetch_add(other.count(), std::memory_order_relaxed);
  sum_.fetch_add(other.sum_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  const uint64_t other_max = other.max();
  uint64_t seen = max_.load(std::memory_order_relaxed);
  while (other_max > seen && !max_.compare_exchange_weak(seen, other_max, std::memory_order_relaxed)) {
  }
}

void LatencyHistogram::Reset() {
  for (size_t i = 0; i < kBuckets; ++i) counts_[i].store(0, std::memory_order_relaxed);
  count_.store(0, std::memory_order_relaxed);
  sum_.store(0, std::memory_order_relaxed);
  max_.store(0, std::memory_order_relaxed);
}

double LatencyHistogram::Mean() const {
  const uint64_t n = count();
  return n == 0 ? 0.0 : static_cast<double>(sum_.load(std::memory_order_relaxed)) / static_cast<double>(n);
}

uint64_t LatencyHistogram::Percentile(double percentile) const {
  uint64_t total = 0;
  for (size_t i = 0; i < kBuckets; ++i) total += counts_[i].load(std::memory_order_relaxed);
  if (total == 0) return 0;
  const double wanted = std::ceil(std::clamp(percentile, 0.0, 100.0) / 100.0 * static_cast<double>(total));
  const uint64_t rank = std::max<uint64_t>(1, static_cast<uint64_t>(wanted));
  uint64_t seen = 0;
  for (size_t i = 0; i < kBuckets; ++i) {
    seen += counts_[i].load(std::memory_order_relaxed);
    if (seen >= rank) return std::min(HighestEquivalent(i), max());
  }
  return max();
}

}  // namespace partita::client
