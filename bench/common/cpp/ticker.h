// Ticker: runs a function every `period` on a thread of its own until it is
// stopped: the drivers' progress lines.
//
// Ownership: owns its thread; the destructor stops and joins it. Thread
// model: Stop() from any one thread; the function runs on the ticker's
// thread only, never after Stop() returns.
#ifndef PARTITA_BENCH_COMMON_TICKER_H_
#define PARTITA_BENCH_COMMON_TICKER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace partita::bench {

class Ticker {
 public:
  // REQUIRES: period > 0.
  Ticker(std::chrono::nanoseconds period, std::function<void()> tick);
  ~Ticker();
  Ticker(const Ticker&) = delete;
  Ticker& operator=(const Ticker&) = delete;

  // Stops ticking; waits for a tick being run. Idempotent.
  void Stop();

 private:
  void Run();

  const std::chrono::nanoseconds period_;
  const std::function<void()> tick_;
  std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;  // guarded by mu_
  std::thread thread_;
};

}  // namespace partita::bench

#endif  // PARTITA_BENCH_COMMON_TICKER_H_
