// Param: one procedure parameter as sent on the wire (proto/client.proto
// `Parameter`): SQL NULL, an integer, a FLOAT, a DECIMAL as exact text, a
// VARCHAR, a VARBINARY, or a TIMESTAMP in microseconds since the epoch (UTC).
//
//   client.Call("Vote", {6175551234LL, 3, 2});
//   client.Call("Put", {"key-1", Param::Bytes(blob)});
//   client.Call("Audit", {nullptr, Param::Decimal("-12.50"), Param::Timestamp(micros)});
//
// Ownership: a value type owning its text or bytes. Thread model: not
// synchronized; immutable once handed to the client.
#ifndef PARTITA_CLIENT_PARAM_H_
#define PARTITA_CLIENT_PARAM_H_

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace partita::client {

class Param {
 public:
  // The alternatives; their order is the index of `value()`.
  struct DecimalText { std::string text; };
  struct Binary { std::string bytes; };
  struct TimestampMicros { int64_t micros; };
  using Value = std::variant<std::monostate, int64_t, double, DecimalText, std::string, Binary,
                             TimestampMicros>;

  // SQL NULL.
  Param() = default;
  Param(std::nullptr_t) {}  // NOLINT: implicit, so that {nullptr} reads as NULL
  template <std::integral T>
  Param(T v) : value_(static_cast<int64_t>(v)) {}  // NOLINT: implicit on purpose
  Param(double v) : value_(v) {}                    // NOLINT
  Param(const char* text) : value_(std::string(text)) {}  // NOLINT
  Param(std::string text) : value_(std::move(text)) {}    // NOLINT
  Param(std::string_view text) : value_(std::string(text)) {}  // NOLINT

  // A DECIMAL, as exact decimal text such as "-12.5" (the server checks it).
  static Param Decimal(std::string text) { return Param(Value(DecimalText{std::move(text)})); }
  // A VARBINARY value.
  static Param Bytes(std::string bytes) { return Param(Value(Binary{std::move(bytes)})); }
  // A TIMESTAMP: microseconds since 1970-01-01 00:00:00 UTC.
  static Param Timestamp(int64_t micros) { return Param(Value(TimestampMicros{micros})); }

  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
  const Value& value() const { return value_; }

 private:
  explicit Param(Value v) : value_(std::move(v)) {}

  Value value_;
};

}  // namespace partita::client

#endif  // PARTITA_CLIENT_PARAM_H_
