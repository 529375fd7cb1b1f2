#include "kv_operations.h"

#include <future>

namespace partita::bench::kv {
namespace {

int64_t Nanos(KvOperations::Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

// proto/errors.proto ERROR_CODE_OUTCOME_UNKNOWN: the host lost track of the call; it may have committed.
constexpr uint32_t kErrorCodeOutcomeUnknown = 28;

std::string Describe(const char* procedure, const client::Result<client::Response>& result) {
  return std::string(procedure) + ": " + (result.ok() ? result->ToString() : result.status().ToString());
}

}  // namespace

KvOperations::KvOperations(Parts parts, double get_ratio) : parts_(parts), get_ratio_(get_ratio) {}

KvOperations::Call KvOperations::Next(SplitRandom& random, Clock::time_point start,
                                      std::vector<client::Param>* params) {
  const int key = parts_.chooser->Next(random);
  params->emplace_back(parts_.keys->Key(key));
  if (random.NextDouble() < get_ratio_) return {key, -1, start, Clock::now()};
  const int64_t sequence = parts_.sequence->fetch_add(1) + 1;
  params->push_back(client::Param::Bytes(parts_.values->Value(sequence)));
  return {key, sequence, start, Clock::now()};
}

void KvOperations::IssueAsync(SplitRandom& random, Clock::time_point start) {
  std::vector<client::Param> params;
  params.reserve(2);
  const Call call = Next(random, start, &params);
  parts_.client->CallAsync(call.sequence < 0 ? kGet : kPut, std::move(params),
                           [this, call](client::Result<client::Response> r) { Complete(call, r); });
}

void KvOperations::RunSync(SplitRandom& random) {
  std::vector<client::Param> params;
  params.reserve(2);
  const Call call = Next(random, Clock::now(), &params);
  Complete(call, parts_.client->Call(call.sequence < 0 ? kGet : kPut, std::move(params)));
}

void KvOperations::Complete(const Call& call, const client::Result<client::Response>& result) {
  const Clock::time_point now = Clock::now();
  if (!result.ok() || !result->ok()) {
    parts_.measurements->RecordFailure();
    NoteFailure(call, result);
    // A client-side failure may or may not have run, as may an OUTCOME_UNKNOWN answer; other failures rolled back.
    if (call.sequence >= 0 && (!result.ok() || result->error_code == kErrorCodeOutcomeUnknown)) {
      parts_.writes->OutcomeUnknown(call.key);
    }
    return;
  }
  if (parts_.pauses != nullptr) parts_.pauses->Record(call.key, now);
  const int64_t latency = std::chrono::duration_cast<std::chrono::nanoseconds>(now - call.start).count();
  if (call.sequence < 0) {
    parts_.measurements->RecordGet(latency, !result->results.empty() && result->results[0].row_count() > 0);
  } else {
    parts_.writes->Acknowledged(call.key, call.sequence, Nanos(call.sent), Nanos(now));
    parts_.measurements->RecordPut(latency);
  }
}

bool KvOperations::OutcomeUnknown(const client::Result<client::Response>& result) {
  if (result.ok()) return result->error_code == kErrorCodeOutcomeUnknown;
  return result.status().code() == client::Status::Code::kConnectionLost ||
         result.status().code() == client::Status::Code::kTimeout;
}

void KvOperations::NoteFailure(const Call& call, const client::Result<client::Response>& result) {
  const char* procedure = call.sequence < 0 ? kGet : kPut;
  if (OutcomeUnknown(result)) {
    outcome_unknown_.fetch_add(1, std::memory_order_relaxed);
  } else if (other_failures_.fetch_add(1, std::memory_order_relaxed) == 0) {
    std::lock_guard<std::mutex> lock(failure_mu_);
    first_other_ = Describe(procedure, result);
  }
  if (failed_once_.exchange(true)) return;
  std::lock_guard<std::mutex> lock(failure_mu_);
  first_failure_ = Describe(procedure, result);
}

KvOperations::Failures KvOperations::FailureCounts() const {
  std::lock_guard<std::mutex> lock(failure_mu_);
  return Failures{outcome_unknown_.load(std::memory_order_relaxed), other_failures_.load(std::memory_order_relaxed),
                  first_other_};
}

std::string KvOperations::FirstFailure() const {
  std::lock_guard<std::mutex> lock(failure_mu_);
  return first_failure_;
}

}  // namespace partita::bench::kv
