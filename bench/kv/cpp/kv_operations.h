// KvOperations: the measured operations: a Get of a chosen key with
// probability get_ratio, otherwise a Put of a new value (the next write
// sequence number) to a chosen key. Each answer is counted in the
// Measurements; each put's outcome is recorded in the WriteLog.
//
// Ownership: borrows everything it is given; all must outlive it and every
// call it started. Thread model: thread-safe; IssueAsync and RunSync may be
// called from any number of threads, each with its own generator.
#ifndef PARTITA_BENCH_KV_KV_OPERATIONS_H_
#define PARTITA_BENCH_KV_KV_OPERATIONS_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "key_chooser.h"
#include "key_space.h"
#include "measurements.h"
#include "partita/client/client.h"
#include "partition_pauses.h"
#include "split_random.h"
#include "value_factory.h"
#include "write_log.h"

namespace partita::bench::kv {

class KvOperations {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr const char* kGet = "Get";
  static constexpr const char* kPut = "Put";

  struct Parts {
    client::Client* client;
    const KeySpace* keys;
    const KeyChooser* chooser;
    const ValueFactory* values;
    WriteLog* writes;
    Measurements* measurements;
    std::atomic<int64_t>* sequence;  // write sequence numbers, shared with the preload
    PartitionPauses* pauses = nullptr;  // each success recorded when not null
  };

  // Failures over the whole run: those whose outcome is unknown (the call
  // may have run: a lost connection, a timeout, OUTCOME_UNKNOWN) and the
  // others (not run, or rolled back).
  struct Failures {
    uint64_t outcome_unknown = 0;
    uint64_t other = 0;
    std::string first_other;  // "Put: REJECTED NOT_LEADER: ...", or empty
  };

  KvOperations(Parts parts, double get_ratio);

  // Sends one operation; its answer is counted on a client thread. Latency
  // runs from `start` (its scheduled time when paced, else now). May block
  // while the client has no room for another call in flight.
  void IssueAsync(SplitRandom& random, Clock::time_point start);
  // Runs one operation and counts its answer on this thread.
  void RunSync(SplitRandom& random);

  // The first failure seen ("Put: GRACEFUL_FAILURE ..."), or empty.
  std::string FirstFailure() const;
  Failures FailureCounts() const;

  // Whether `result` leaves the call's outcome unknown: it may have run.
  static bool OutcomeUnknown(const client::Result<client::Response>& result);

 private:
  struct Call {
    int key;
    int64_t sequence;  // -1 for a Get
    Clock::time_point start;
    Clock::time_point sent;
  };

  // Draws the next operation; fills `params`.
  Call Next(SplitRandom& random, Clock::time_point start, std::vector<client::Param>* params);
  void Complete(const Call& call, const client::Result<client::Response>& result);
  void NoteFailure(const Call& call, const client::Result<client::Response>& result);

  Parts parts_;
  double get_ratio_;
  mutable std::mutex failure_mu_;
  std::string first_failure_;  // guarded by failure_mu_
  std::string first_other_;    // guarded by failure_mu_
  std::atomic<bool> failed_once_{false};
  std::atomic<uint64_t> outcome_unknown_{0};
  std::atomic<uint64_t> other_failures_{0};
};

}  // namespace partita::bench::kv

#endif  // PARTITA_BENCH_KV_KV_OPERATIONS_H_
