#include "outcomes.h"

namespace partita::bench::voter {

Outcomes::Outcomes(int contestants)
    : slots_(contestants + 2), accepted_by_contestant_(std::make_unique<std::atomic<uint64_t>[]>(slots_)) {
  for (int i = 0; i < slots_; ++i) accepted_by_contestant_[i].store(0, std::memory_order_relaxed);
}

void Outcomes::RecordAnswer(int contestant, int64_t code) {
  if (code == kAccepted && contestant >= 0 && contestant < slots_) {
    accepted_by_contestant_[contestant].fetch_add(1, std::memory_order_relaxed);
  } else if (code == kOverVoteLimit) {
    over_limit_.fetch_add(1, std::memory_order_relaxed);
  } else if (code == kInvalidContestant) {
    invalid_.fetch_add(1, std::memory_order_relaxed);
  } else {
    RecordFailure();
  }
}

uint64_t Outcomes::Accepted(int contestant) const {
  return contestant >= 0 && contestant < slots_ ? accepted_by_contestant_[contestant].load(std::memory_order_relaxed)
                                                : 0;
}

uint64_t Outcomes::Accepted() const {
  uint64_t n = 0;
  for (int i = 0; i < slots_; ++i) n += accepted_by_contestant_[i].load(std::memory_order_relaxed);
  return n;
}

}  // namespace partita::bench::voter
