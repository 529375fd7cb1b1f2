#include "in_flight_calls.h"

#include <utility>

namespace partita::client {
namespace {
constexpr size_t kInitialSlots = 64;
// Fibonacci hashing: handles are consecutive, and the multiply spreads them.
constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;
}  // namespace

size_t InFlightCalls::Home(uint64_t handle) const { return static_cast<size_t>((handle * kGolden) >> 32) & (slots_.size() - 1); }

size_t InFlightCalls::Find(uint64_t handle) const {
  if (slots_.empty()) return 0;
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(handle);; i = (i + 1) & mask) {
    if (slots_[i].handle == handle) return i;
    if (slots_[i].handle == 0) return slots_.size();
  }
}

void InFlightCalls::Add(PendingCall call) {
  // At most three quarters full, so a probe always meets an empty slot.
  if ((size_ + 1) * 4 > slots_.size() * 3) Grow();
  const size_t mask = slots_.size() - 1;
  size_t i = Home(call.handle);
  while (slots_[i].handle != 0) i = (i + 1) & mask;
  slots_[i].handle = call.handle;
  slots_[i].call = std::move(call);
  ++size_;
}

bool InFlightCalls::Take(uint64_t handle, PendingCall* out) {
  const size_t i = Find(handle);
  if (i >= slots_.size()) return false;
  *out = std::move(slots_[i].call);
  Remove(i);
  return true;
}

void InFlightCalls::Remove(size_t i) {
  const size_t mask = slots_.size() - 1;
  slots_[i].handle = 0;
  --size_;
  for (size_t j = (i + 1) & mask; slots_[j].handle != 0; j = (j + 1) & mask) {
    const size_t home = Home(slots_[j].handle);
    // Slot j's call may move back to i only if its home is not in (i, j] (cyclically).
    const bool home_between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
    if (home_between) continue;
    slots_[i].handle = slots_[j].handle;
    slots_[i].call = std::move(slots_[j].call);
    slots_[j].handle = 0;
    i = j;
  }
}

void InFlightCalls::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_ = std::vector<Slot>(old.empty() ? kInitialSlots : old.size() * 2);
  size_ = 0;
  for (Slot& slot : old) {
    if (slot.handle != 0) Add(std::move(slot.call));
  }
}

void InFlightCalls::TakeExpired(PendingCall::Clock::time_point now, std::vector<PendingCall>* out) {
  expired_.clear();
  for (const Slot& slot : slots_) {
    if (slot.handle != 0 && slot.call.deadline <= now) expired_.push_back(slot.handle);
  }
  for (const uint64_t handle : expired_) {
    out->emplace_back();
    Take(handle, &out->back());
  }
}

void InFlightCalls::TakeAll(std::vector<PendingCall>* out) {
  for (Slot& slot : slots_) {
    if (slot.handle == 0) continue;
    out->push_back(std::move(slot.call));
    slot.handle = 0;
  }
  size_ = 0;
}

}  // namespace partita::client
