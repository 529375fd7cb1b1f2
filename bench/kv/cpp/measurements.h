// Measurements: counts and latencies of completed KV operations, read in
// intervals (the progress lines) and summed over the measured window (the
// report). Operations count in the interval in which they complete; those
// completing outside the window (warm-up, or after its end) are left out of
// the totals, as in the Java driver.
//
// Thread model: Record* from any thread, lock-free; the interval and window
// methods are serialized by a mutex of their own.
#ifndef PARTITA_BENCH_KV_MEASUREMENTS_H_
#define PARTITA_BENCH_KV_MEASUREMENTS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>

#include "latencies.h"
#include "latency_summary.h"

namespace partita::bench::kv {

class Measurements {
 public:
  // What completed in one interval; latencies in ms (0 when nothing completed).
  struct IntervalStats {
    uint64_t gets = 0;
    uint64_t puts = 0;
    uint64_t misses = 0;
    uint64_t failed = 0;
    double p50_ms = 0;
    double p99_ms = 0;
    uint64_t operations() const { return gets + puts + failed; }
  };

  // The measured window's totals.
  struct WindowStats {
    double seconds = 0;
    uint64_t gets = 0;
    uint64_t puts = 0;
    uint64_t misses = 0;
    uint64_t failed = 0;
    LatencySummary latency;
    IntervalStats last_interval;
    // Completed operations per second, failures included.
    double Throughput() const {
      return seconds > 0 ? static_cast<double>(gets + puts + failed) / seconds : 0;
    }
  };

  // A Get answered SUCCESS; `found` when it returned a row.
  void RecordGet(int64_t latency_ns, bool found);
  // A Put answered SUCCESS.
  void RecordPut(int64_t latency_ns);
  // A call answered with a failure status, or failed in the client.
  void RecordFailure() { failed_.fetch_add(1, std::memory_order_relaxed); }

  // Ends the current interval and returns what completed in it; added to the totals when measuring.
  IntervalStats Interval();
  // Starts the measured window now; returns the interval that ends here (not counted).
  IntervalStats OpenWindow();
  // Ends the measured window now and returns its totals.
  WindowStats CloseWindow();

 private:
  using Clock = std::chrono::steady_clock;

  IntervalStats IntervalLocked();

  std::atomic<uint64_t> gets_{0};
  std::atomic<uint64_t> puts_{0};
  std::atomic<uint64_t> misses_{0};
  std::atomic<uint64_t> failed_{0};
  Latencies latencies_;
  std::mutex mu_;
  bool measuring_ = false;   // guarded by mu_
  WindowStats totals_;       // guarded by mu_
  Clock::time_point window_start_;  // guarded by mu_
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_MEASUREMENTS_H_
