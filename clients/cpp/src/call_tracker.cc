#include "call_tracker.h"

#include <exception>
#include <iostream>

namespace partita::client {
namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;

uint64_t Take(std::atomic<uint64_t>& counter, bool reset) {
  return reset ? counter.exchange(0, kRelaxed) : counter.load(kRelaxed);
}
}  // namespace

void CallTracker::Started() {
  calls_.fetch_add(1, kRelaxed);
  outstanding_.fetch_add(1, std::memory_order_acq_rel);
}

bool CallTracker::TakeRoom(PendingCall& call, std::chrono::milliseconds wait) {
  if (!bounded_) return true;
  call.holds_client_room = room_.try_acquire() || (wait.count() > 0 && room_.try_acquire_for(wait));
  return call.holds_client_room;
}

void CallTracker::Count(const Result<Response>& result) {
  if (!result.ok()) {
    switch (result.status().code()) {
      case Status::Code::kTimeout: timeouts_.fetch_add(1, kRelaxed); return;
      case Status::Code::kConnectionLost: connection_lost_.fetch_add(1, kRelaxed); return;
      case Status::Code::kBackpressure: backpressure_.fetch_add(1, kRelaxed); return;
      default: other_client_errors_.fetch_add(1, kRelaxed); return;
    }
  }
  switch (result->status) {
    case ResponseStatus::kSuccess: successes_.fetch_add(1, kRelaxed); return;
    case ResponseStatus::kUserAbort: user_aborts_.fetch_add(1, kRelaxed); return;
    case ResponseStatus::kGracefulFailure: graceful_failures_.fetch_add(1, kRelaxed); return;
    case ResponseStatus::kRejected: rejected_.fetch_add(1, kRelaxed); return;
    case ResponseStatus::kUnexpectedFailure: unexpected_failures_.fetch_add(1, kRelaxed); return;
  }
}

void CallTracker::Finish(PendingCall& call, Result<Response> result) {
  if (call.holds_client_room) {
    call.holds_client_room = false;
    room_.release();
  }
  Count(result);
  if (result.ok()) {
    const auto elapsed = PendingCall::Clock::now() - call.started;
    latency_.Record(std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count());
    result->round_trip_nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
  }
  try {
    if (call.callback) call.callback(std::move(result));
  } catch (const std::exception& e) {
    std::cerr << "partita client: the callback of a call to " << call.procedure << " threw: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "partita client: the callback of a call to " << call.procedure << " threw\n";
  }
  call.callback = nullptr;  // release what it captured before the call counts as done
  if (outstanding_.fetch_sub(1, std::memory_order_acq_rel) == 1) outstanding_.notify_all();
}

void CallTracker::LateResponse() { late_responses_.fetch_add(1, kRelaxed); }

void CallTracker::AwaitIdle() {
  for (int64_t n = outstanding_.load(std::memory_order_acquire); n != 0;
       n = outstanding_.load(std::memory_order_acquire)) {
    outstanding_.wait(n, std::memory_order_acquire);
  }
}

ClientStatistics CallTracker::Snapshot(bool reset) {
  ClientStatistics s;
  s.latency_count = latency_.count();
  s.latency_mean_us = latency_.Mean();
  s.p50_us = latency_.Percentile(50);
  s.p95_us = latency_.Percentile(95);
  s.p99_us = latency_.Percentile(99);
  s.p999_us = latency_.Percentile(99.9);
  s.max_us = latency_.max();
  if (reset) latency_.Reset();
  s.calls = Take(calls_, reset);
  s.successes = Take(successes_, reset);
  s.user_aborts = Take(user_aborts_, reset);
  s.graceful_failures = Take(graceful_failures_, reset);
  s.rejected = Take(rejected_, reset);
  s.unexpected_failures = Take(unexpected_failures_, reset);
  s.timeouts = Take(timeouts_, reset);
  s.connection_lost = Take(connection_lost_, reset);
  s.backpressure = Take(backpressure_, reset);
  s.other_client_errors = Take(other_client_errors_, reset);
  s.late_responses = Take(late_responses_, reset);
  return s;
}

}  // namespace partita::client
