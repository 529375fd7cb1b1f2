// CallTracker: where every call ends. It counts calls by outcome, records
// their latency, runs their callbacks, lets Drain() wait for the calls in
// flight, and keeps the client's bound on calls in flight: a call that took
// room (TakeRoom) gives it back when it ends, before its callback runs, so
// the callback can make the next call.
//
// Ownership: one per Client, outliving its connections. Thread model:
// thread-safe; counters are relaxed atomics, so Started/Finish never block.
#ifndef PARTITA_CLIENT_SRC_CALL_TRACKER_H_
#define PARTITA_CLIENT_SRC_CALL_TRACKER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <semaphore>

#include "partita/client/client_statistics.h"
#include "partita/client/latency_histogram.h"
#include "partita/client/response.h"
#include "pending_call.h"

namespace partita::client {

class CallTracker final {
 public:
  // At most `max_in_flight` calls that took room at once; 0: no bound.
  explicit CallTracker(uint32_t max_in_flight) : bounded_(max_in_flight > 0), room_(max_in_flight) {}
  CallTracker(const CallTracker&) = delete;
  CallTracker& operator=(const CallTracker&) = delete;

  // A call began; it must end with exactly one Finish.
  void Started();
  // Takes room for `call` in the bound on calls in flight, waiting up to
  // `wait` if there is none; true iff taken (then its Finish gives it back)
  // or the tracker has no bound.
  bool TakeRoom(PendingCall& call, std::chrono::milliseconds wait);
  // Records the outcome, runs the callback (exceptions it throws are
  // reported on stderr and dropped), and ends the call.
  void Finish(PendingCall& call, Result<Response> result);
  // An answer came for a call that had already ended (timed out).
  void LateResponse();
  // Blocks until no call is between Started and Finish.
  void AwaitIdle();
  ClientStatistics Snapshot(bool reset);

 private:
  using Counter = std::atomic<uint64_t>;
  void Count(const Result<Response>& result);

  std::atomic<int64_t> outstanding_{0};
  const bool bounded_;
  std::counting_semaphore<> room_;
  Counter calls_{0}, successes_{0}, user_aborts_{0}, graceful_failures_{0}, rejected_{0},
      unexpected_failures_{0}, timeouts_{0}, connection_lost_{0}, backpressure_{0},
      other_client_errors_{0}, late_responses_{0};
  LatencyHistogram latency_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_CALL_TRACKER_H_
