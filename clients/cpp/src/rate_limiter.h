// RateLimiter: paces calls to at most N per second across every caller
// thread: each Acquire() takes the next free slot (1/N s apart) and sleeps
// until it. Idle time earns no burst.
//
// Thread model: thread-safe, lock-free (one CAS per call).
#ifndef PARTITA_CLIENT_SRC_RATE_LIMITER_H_
#define PARTITA_CLIENT_SRC_RATE_LIMITER_H_

#include <atomic>
#include <cstdint>

namespace partita::client {

class RateLimiter final {
 public:
  // REQUIRES: per_second > 0.
  explicit RateLimiter(uint64_t per_second);

  // Waits for this caller's slot.
  void Acquire();

 private:
  const int64_t interval_nanos_;
  std::atomic<int64_t> next_nanos_{0};
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_RATE_LIMITER_H_
