#include "measurements.h"

namespace partita::bench::kv {

void Measurements::RecordGet(int64_t latency_ns, bool found) {
  latencies_.Record(latency_ns);
  gets_.fetch_add(1, std::memory_order_relaxed);
  if (!found) misses_.fetch_add(1, std::memory_order_relaxed);
}

void Measurements::RecordPut(int64_t latency_ns) {
  latencies_.Record(latency_ns);
  puts_.fetch_add(1, std::memory_order_relaxed);
}

Measurements::IntervalStats Measurements::Interval() {
  std::lock_guard<std::mutex> lock(mu_);
  return IntervalLocked();
}

Measurements::IntervalStats Measurements::IntervalLocked() {
  const LatencySummary l = latencies_.TakeInterval();
  IntervalStats s;
  s.gets = gets_.exchange(0);
  s.puts = puts_.exchange(0);
  s.misses = misses_.exchange(0);
  s.failed = failed_.exchange(0);
  s.p50_ms = l.p50_ms;
  s.p99_ms = l.p99_ms;
  if (measuring_) {
    totals_.gets += s.gets;
    totals_.puts += s.puts;
    totals_.misses += s.misses;
    totals_.failed += s.failed;
  }
  return s;
}

Measurements::IntervalStats Measurements::OpenWindow() {
  std::lock_guard<std::mutex> lock(mu_);
  const IntervalStats before = IntervalLocked();
  totals_ = WindowStats{};
  latencies_.StartMeasuring();
  measuring_ = true;
  window_start_ = Clock::now();
  return before;
}

Measurements::WindowStats Measurements::CloseWindow() {
  std::lock_guard<std::mutex> lock(mu_);
  const IntervalStats last = IntervalLocked();
  latencies_.StopMeasuring();
  measuring_ = false;
  WindowStats window = totals_;
  window.seconds = std::chrono::duration<double>(Clock::now() - window_start_).count();
  window.latency = latencies_.Measured();
  window.last_interval = last;
  return window;
}

}  // namespace partita::bench::kv
