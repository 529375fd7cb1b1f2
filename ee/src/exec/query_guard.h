// QueryGuard: the bounds one batch of a transaction runs under — a memory
// limit on each statement's intermediate results (hash tables of joins and
// aggregates, sorts, DISTINCT, set operations), a deadline, and a cancel flag
// that another thread may raise.
//
// Executors call Tick() once per row they produce (Executor::Next does it):
// every kTickInterval ticks the guard reads the clock and the cancel flag, so
// a statement notices its deadline or a cancel within a few thousand rows.
// Operators that keep rows call Charge() with the bytes they keep.
//
// Ownership: one per Engine, reused by every batch. Thread model:
// partition-confined, except the cancel flag (an atomic the Engine owns and
// other threads set through Engine::RequestCancel).
#ifndef PARTITA_EXEC_QUERY_GUARD_H_
#define PARTITA_EXEC_QUERY_GUARD_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string_view>

#include "partita/status.h"
#include "partita/value.h"

namespace partita {

class QueryGuard {
 public:
  using Clock = std::chrono::steady_clock;

  // How many Tick() calls pass between two looks at the clock and the flag.
  static constexpr int kTickInterval = 4096;
  // Bytes charged per kept row beyond its values: hash-table and vector slots.
  static constexpr int64_t kRowOverheadBytes = 32;

  // `cancel` is read on every check; not owned, outlives the guard.
  explicit QueryGuard(const std::atomic<bool>* cancel) : cancel_(cancel) {}
  QueryGuard(const QueryGuard&) = delete;
  QueryGuard& operator=(const QueryGuard&) = delete;

  // Starts a batch: `memory_limit_bytes` per statement (0 = none) and
  // `time_limit_ms` from now (0 = none).
  void BeginBatch(int64_t memory_limit_bytes, int64_t time_limit_ms);
  // Starts a statement: nothing charged yet.
  void BeginStatement() { charged_ = 0; }

  // Counts one row; every kTickInterval rows checks the deadline and the
  // cancel flag. Returns TRANSACTION_TIMEOUT or CANCELLED iff the batch must
  // stop.
  [[nodiscard]] Status Tick() {
    if (--countdown_ > 0) return Status::OK();
    countdown_ = kTickInterval;
    return Check();
  }
  // Checks the deadline and the cancel flag now.
  [[nodiscard]] Status Check() const;

  // Adds `bytes` kept by `op` (e.g. "hash join") to the statement's total.
  // Returns QUERY_MEMORY_LIMIT naming `op` and the limit iff the total passes
  // the limit.
  [[nodiscard]] Status Charge(int64_t bytes, std::string_view op);
  // Charges a row of `width` values (strings included) plus kRowOverheadBytes.
  [[nodiscard]] Status ChargeRow(const Value* row, int width, std::string_view op);

  int64_t charged() const { return charged_; }

 private:
  const std::atomic<bool>* cancel_;
  int64_t memory_limit_ = 0;
  int64_t charged_ = 0;
  int64_t time_limit_ms_ = 0;
  Clock::time_point start_{};
  Clock::time_point deadline_ = Clock::time_point::max();
  int countdown_ = kTickInterval;
};

}  // namespace partita

#endif  // PARTITA_EXEC_QUERY_GUARD_H_
