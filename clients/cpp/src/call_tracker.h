// CallTracker: where every call ends. It counts calls by outcome, records
// their latency, runs their callbacks, and lets Drain() wait for the calls
// in flight.
//
// Ownership: one per Client, outliving its connections. Thread model:
// thread-safe; counters are relaxed atomics, so Started/Finish never block.
#ifndef PARTITA_CLIENT_SRC_CALL_TRACKER_H_
#define PARTITA_CLIENT_SRC_CALL_TRACKER_H_

#include <atomic>
#include <cstdint>

#include "partita/client/client_statistics.h"
#include "partita/client/latency_histogram.h"
#include "partita/client/response.h"
#include "pending_call.h"

namespace partita::client {

class CallTracker final {
 public:
  CallTracker() = default;
  CallTracker(const CallTracker&) = delete;
  CallTracker& operator=(const CallTracker&) = delete;

  // A call began; it must end with exactly one Finish.
  void Started();
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
  Counter calls_{0}, successes_{0}, user_aborts_{0}, graceful_failures_{0}, rejected_{0},
      unexpected_failures_{0}, timeouts_{0}, connection_lost_{0}, backpressure_{0},
      other_client_errors_{0}, late_responses_{0};
  LatencyHistogram latency_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_CALL_TRACKER_H_
