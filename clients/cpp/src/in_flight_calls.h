// InFlightCalls: the calls one connection has sent and not yet seen
// answered, by handle.
//
// An open-addressing table (linear probing, deletion by shifting the
// following slots back) whose slots are kept when calls leave, so adding
// and taking a call allocates nothing once the table has grown to the most
// calls the connection had in flight. (A node-based map allocated one node
// per call.) Handles are the client's, unique and never 0.
//
// Ownership: owns the calls it holds. Thread model: not synchronized; the
// connection uses it on its strand only.
#ifndef PARTITA_CLIENT_SRC_IN_FLIGHT_CALLS_H_
#define PARTITA_CLIENT_SRC_IN_FLIGHT_CALLS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pending_call.h"

namespace partita::client {

class InFlightCalls final {
 public:
  // REQUIRES: call.handle != 0 and no call with that handle is held.
  void Add(PendingCall call);
  // Moves the call with `handle` into *out and forgets it; false when none is held.
  bool Take(uint64_t handle, PendingCall* out);
  // Appends every call with deadline <= now to *out and forgets them.
  void TakeExpired(PendingCall::Clock::time_point now, std::vector<PendingCall>* out);
  // Appends every call to *out and forgets them all.
  void TakeAll(std::vector<PendingCall>* out);

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  struct Slot {
    uint64_t handle = 0;  // 0: empty
    PendingCall call;
  };

  size_t Home(uint64_t handle) const;
  // The slot holding `handle`, or slots_.size() when none does.
  size_t Find(uint64_t handle) const;
  // Empties slot `i` and shifts the run after it back so every call stays
  // reachable from its home slot.
  void Remove(size_t i);
  void Grow();

  std::vector<Slot> slots_;  // a power of two in size, or empty
  size_t size_ = 0;
  std::vector<uint64_t> expired_;  // TakeExpired's scratch, kept between sweeps
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_SRC_IN_FLIGHT_CALLS_H_
