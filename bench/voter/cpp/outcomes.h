// Outcomes: what the Vote calls of one phase (warm-up or measured) came to:
// accepted votes per contestant, rejections, failures.
//
// Thread model: lock-free counters (relaxed atomics): the client's I/O
// threads and the calling threads record at once; reads are exact once the
// phase's calls have all finished.
#ifndef PARTITA_BENCH_VOTER_OUTCOMES_H_
#define PARTITA_BENCH_VOTER_OUTCOMES_H_

#include <atomic>
#include <cstdint>
#include <memory>

namespace partita::bench::voter {

class Outcomes {
 public:
  // Vote's answers (bench/voter/procedures/.../Vote.java).
  static constexpr int64_t kAccepted = 0;
  static constexpr int64_t kInvalidContestant = 1;
  static constexpr int64_t kOverVoteLimit = 2;

  // Counters for contestants 1..contestants + 1 (the last is the invalid
  // number the driver sends). REQUIRES: contestants >= 1.
  explicit Outcomes(int contestants);

  // Vote answered `code` for `contestant`; a code Vote never returns counts as failed.
  void RecordAnswer(int contestant, int64_t code);
  // A non-SUCCESS answer or a client-side failure.
  void RecordFailure() { failed_.fetch_add(1, std::memory_order_relaxed); }

  // Accepted votes of `contestant` (0 outside 0..MaxContestant()).
  uint64_t Accepted(int contestant) const;
  uint64_t Accepted() const;
  uint64_t over_limit() const { return over_limit_.load(std::memory_order_relaxed); }
  uint64_t invalid() const { return invalid_.load(std::memory_order_relaxed); }
  uint64_t failed() const { return failed_.load(std::memory_order_relaxed); }
  // Calls that got an answer from Vote (any outcome but failed).
  uint64_t Answered() const { return Accepted() + over_limit() + invalid(); }
  // The highest contestant number counted: contestants + 1.
  int MaxContestant() const { return slots_ - 1; }

 private:
  int slots_;
  std::unique_ptr<std::atomic<uint64_t>[]> accepted_by_contestant_;
  std::atomic<uint64_t> over_limit_{0};
  std::atomic<uint64_t> invalid_{0};
  std::atomic<uint64_t> failed_{0};
};

}  // namespace partita::bench::voter

#endif  // PARTITA_BENCH_VOTER_OUTCOMES_H_
