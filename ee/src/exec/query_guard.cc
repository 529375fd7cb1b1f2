#include "exec/query_guard.h"

#include <cstdio>
#include <string>

#include "errors.pb.h"

namespace partita {
namespace {

std::string Seconds(int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f s", static_cast<double>(ms) / 1000.0);
  return text;
}

}  // namespace

void QueryGuard::BeginBatch(int64_t memory_limit_bytes, int64_t time_limit_ms) {
  memory_limit_ = memory_limit_bytes;
  time_limit_ms_ = time_limit_ms;
  // Without a limit the clock is never read (the common case: no time limit).
  start_ = time_limit_ms > 0 ? Clock::now() : Clock::time_point{};
  deadline_ = time_limit_ms > 0 ? start_ + std::chrono::milliseconds(time_limit_ms) : Clock::time_point::max();
  countdown_ = kTickInterval;
  charged_ = 0;
}

Status QueryGuard::Check() const {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    return Status(proto::ERROR_CODE_CANCELLED, "cancelled while running; the transaction was rolled back");
  }
  if (deadline_ == Clock::time_point::max()) return Status::OK();
  const Clock::time_point now = Clock::now();
  if (now < deadline_) return Status::OK();
  const int64_t elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - start_).count();
  return Status(proto::ERROR_CODE_TRANSACTION_TIMEOUT, "ran " + Seconds(elapsed) + ", past its time limit of " +
                                                           Seconds(time_limit_ms_) +
                                                           "; the transaction was rolled back");
}

Status QueryGuard::Charge(int64_t bytes, std::string_view op) {
  charged_ += bytes;
  if (memory_limit_ <= 0 || charged_ <= memory_limit_) return Status::OK();
  return Status(proto::ERROR_CODE_QUERY_MEMORY_LIMIT,
                std::string(op) + " needs more than the statement's memory limit for intermediate results (" +
                    std::to_string(memory_limit_) + " bytes, --query-memory); the transaction was rolled back");
}

Status QueryGuard::ChargeRow(const Value* row, int width, std::string_view op) {
  int64_t bytes = kRowOverheadBytes + static_cast<int64_t>(sizeof(Value)) * width;
  for (int i = 0; i < width; ++i) {
    if (!row[i].is_null() && IsVariableLengthType(row[i].type())) bytes += row[i].string_value().size();
  }
  return Charge(bytes, op);
}

}  // namespace partita
