// Result<T>: a value of type T, or the Status saying why there is none.
//
// Ownership: owns its value. Thread model: a value type; not synchronized.
#ifndef PARTITA_CLIENT_RESULT_H_
#define PARTITA_CLIENT_RESULT_H_

#include <cassert>
#include <optional>
#include <utility>

#include "partita/client/status.h"

namespace partita::client {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit on purpose
  // REQUIRES: !status.ok() (a failed Result carries why it failed).
  Result(Status status) : status_(std::move(status)) {  // NOLINT: implicit on purpose
    assert(!status_.ok() && "a Result made from a Status must carry an error");
  }

  bool ok() const { return value_.has_value(); }
  // OK iff a value is present.
  const Status& status() const { return status_; }

  // REQUIRES: ok().
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_RESULT_H_
