// Status and Result<T>: the only error channel of the engine's API.
//
// A Status is OK or carries an error code (partita/error_code.h, generated
// from proto/errors.proto, the single source shared with Java) and a message
// naming what was wrong and where.
// Expected failures (constraint violations, bad values, SQL errors) are
// Statuses, never exceptions. Thread model: plain values, no shared state.
#ifndef PARTITA_STATUS_H_
#define PARTITA_STATUS_H_

#include <string>
#include <utility>
#include <variant>

#include "partita/error_code.h"

namespace partita {

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status OK() { return Status(); }

  bool ok() const { return code_ == error::kOk; }
  ErrorCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "CONSTRAINT_VIOLATION: ..." for logs and tests.
  std::string ToString() const;

  // Drops an error on purpose; grep-able.
  void PermitUncheckedError() const {}

 private:
  ErrorCode code_ = error::kOk;
  std::string message_;
};

// Either a T or an error Status.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : value_(std::move(status)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(value_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(value_);
  }
  T& value() & { return std::get<T>(value_); }
  T&& value() && { return std::get<T>(std::move(value_)); }
  T* operator->() { return &value(); }
  T& operator*() { return value(); }

 private:
  std::variant<T, Status> value_;
};

}  // namespace partita

// Returns from the current function when `expr` yields an error Status.
#define PARTITA_RETURN_IF_ERROR(expr)         \
  do {                                        \
    ::partita::Status _st = (expr);           \
    if (!_st.ok()) return _st;                \
  } while (0)

#endif  // PARTITA_STATUS_H_
