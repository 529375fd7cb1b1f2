// PendingCall: one call between CallAsync and its callback: the handle
// matching its answer, its callback, and its clock.
//
// Ownership: moved from the caller into a connection's queue, then its
// in-flight map, then handed to CallTracker::Finish. Thread model: owned by
// one place at a time; never shared.
#ifndef PARTITA_CLIENT_SRC_PENDING_CALL_H_
#define PARTITA_CLIENT_SRC_PENDING_CALL_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "partita/client/client.h"

namespace partita::client {

struct PendingCall {
  using Clock = std::chrono::steady_clock;

  uint64_t handle = 0;
  std::string procedure;
  Callback callback;
  Clock::time_point started;   // when CallAsync was entered (latency counts from here)
  Clock::time_point deadline;  // when the call times out: started + the call timeout
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_PENDING_CALL_H_
