// PendingCall: one call between CallAsync and its callback: the handle
// matching its answer, its callback, its clock, and its parameters (kept
// until the answer, so that a call answered NOT_LEADER, which was not run,
// can be sent again at its partition's leader).
//
// Ownership: moved from the caller into a connection's queue, then its
// in-flight map, then handed to CallTracker::Finish (or, answered
// NOT_LEADER or with an unknown outcome, to the TopologyFollower and into a
// connection again). Thread model: owned by
// one place at a time; never shared.
#ifndef PARTITA_CLIENT_SRC_PENDING_CALL_H_
#define PARTITA_CLIENT_SRC_PENDING_CALL_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "partita/client/client.h"

namespace partita::client {

struct PendingCall {
  using Clock = std::chrono::steady_clock;

  uint64_t handle = 0;
  std::string procedure;
  Callback callback;
  Clock::time_point started;   // when CallAsync was entered (latency counts from here)
  Clock::time_point deadline;  // when the call times out: started + the call timeout
  std::vector<Param> params;
  uint32_t not_leader_resends = 0;  // times sent again after a NOT_LEADER answer
  uint32_t behind_waits = 0;        // times sent again after a host behind the client's topology refused it
  // Set once the call's outcome became unknown (a lost connection, an
  // OUTCOME_UNKNOWN answer) and it is being sent again with its handle:
  // why, for the answer it gets if no sending settles it in time.
  std::string unknown_reason{};
  uint32_t unknown_resends = 0;  // times sent again since its outcome became unknown
  // Holds room in the client's bound on calls in flight (ClientConfig::max_in_flight), which its end gives back.
  bool holds_client_room = false;
};

// The answer of a call whose outcome stayed unknown until its deadline: an
// OUTCOME_UNKNOWN failure (partita.proto.ErrorCode 28) saying why.
inline Response OutcomeUnknownAnswer(const PendingCall& call) {
  Response r;
  r.status = ResponseStatus::kUnexpectedFailure;
  r.error_code = 28;
  r.error_name = "OUTCOME_UNKNOWN";
  r.message = "the call to " + call.procedure + " may have run (at most once): " + call.unknown_reason +
              "; sending it again found no answer within its timeout";
  return r;
}

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_PENDING_CALL_H_
