#include "ticker.h"

namespace partita::bench {

Ticker::Ticker(std::chrono::nanoseconds period, std::function<void()> tick)
    : period_(period), tick_(std::move(tick)), thread_([this] { Run(); }) {}

Ticker::~Ticker() { Stop(); }

void Ticker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Ticker::Run() {
  auto next = std::chrono::steady_clock::now() + period_;
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_cv_.wait_until(lock, next, [this] { return stopping_; })) {
    lock.unlock();
    tick_();
    lock.lock();
    next += period_;
  }
}

}  // namespace partita::bench
