// Pacer: a fixed-rate schedule: call n is due at start + offset + n / rate.
// Sleeps, never spins: the kernel wakes the thread some tens of µs late, so
// calls then go out in small groups of those that fell due meanwhile, and a
// small machine keeps its cores for the server. A rate of 0 never waits.
//
// Ownership: a value type. Thread model: not synchronized; one per thread.
#ifndef PARTITA_BENCH_COMMON_PACER_H_
#define PARTITA_BENCH_COMMON_PACER_H_

#include <chrono>
#include <cstdint>
#include <thread>

namespace partita::bench {

class Pacer {
 public:
  using Clock = std::chrono::steady_clock;

  // `rate_per_second` calls per second (0: no pacing), the first due `offset` after now.
  explicit Pacer(double rate_per_second, Clock::duration offset = Clock::duration::zero())
      : interval_ns_(rate_per_second > 0 ? 1e9 / rate_per_second : 0), start_(Clock::now() + offset) {}

  // When the next call is due (now, without pacing); advances the schedule.
  Clock::time_point Next() {
    if (interval_ns_ == 0) return Clock::now();
    return start_ + std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(n_++) * interval_ns_));
  }

  // Waits until the next call is due and returns when it was due; without
  // pacing returns at once, reading no clock (a firehose's hot path).
  Clock::time_point AwaitNext() { return interval_ns_ == 0 ? Clock::time_point{} : AwaitUntil(Next()); }

  // Waits until `due`; returns `due`.
  static Clock::time_point AwaitUntil(Clock::time_point due) {
    while (Clock::now() < due) std::this_thread::sleep_until(due);
    return due;
  }

  bool paced() const { return interval_ns_ != 0; }

 private:
  double interval_ns_;
  Clock::time_point start_;
  uint64_t n_ = 0;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_PACER_H_
