#include "rate_limiter.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace partita::client {
namespace {
using Clock = std::chrono::steady_clock;

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}
}  // namespace

RateLimiter::RateLimiter(uint64_t per_second)
    : interval_nanos_(std::max<int64_t>(1, static_cast<int64_t>(1'000'000'000 / per_second))) {}

void RateLimiter::Acquire() {
  const int64_t now = NowNanos();
  int64_t next = next_nanos_.load(std::memory_order_relaxed);
  int64_t slot;
  do {
    slot = std::max(next, now);
  } while (!next_nanos_.compare_exchange_weak(next, slot + interval_nanos_, std::memory_order_relaxed));
  if (slot > now) std::this_thread::sleep_for(std::chrono::nanoseconds(slot - now));
}

}  // namespace partita::client
