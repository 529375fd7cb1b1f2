// Value: one SQL value of any type, or NULL. 32 bytes, trivially copyable.
//
// Strings (VARCHAR, VARBINARY) are *views*: a Value never owns its bytes. The
// bytes live in a tuple, a parameter buffer, a constant, or the arena of the
// executing statement; whoever makes a Value states how long its bytes live.
//
// DECIMAL is a signed 128-bit integer of units of 10^-12 (scale 12), bounded
// to 38 digits of precision.
#ifndef PARTITA_VALUE_H_
#define PARTITA_VALUE_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "partita/value_type.h"

namespace partita {

using int128 = __int128;

// DECIMAL scale and the bound of its unscaled magnitude (10^38 - 1).
inline constexpr int kDecimalScale = 12;
inline constexpr int64_t kDecimalScaleFactor = 1'000'000'000'000LL;
inline constexpr int128 kDecimalMaxUnscaled =
    static_cast<int128>(10'000'000'000'000'000'000ULL) * static_cast<int128>(10'000'000'000'000'000'000ULL) - 1;

class Value {
 public:
  // A NULL of unknown type.
  Value() : type_(ValueType::kNull), null_(true) { u_.i = 0; }

  static Value Null(ValueType type) {
    Value v;
    v.type_ = type;
    return v;
  }
  static Value TinyInt(int8_t x) { return Int(ValueType::kTinyInt, x); }
  static Value SmallInt(int16_t x) { return Int(ValueType::kSmallInt, x); }
  static Value Integer(int32_t x) { return Int(ValueType::kInteger, x); }
  static Value BigInt(int64_t x) { return Int(ValueType::kBigInt, x); }
  static Value Timestamp(int64_t micros) { return Int(ValueType::kTimestamp, micros); }
  static Value Boolean(bool b) { return Int(ValueType::kBoolean, b ? 1 : 0); }
  // REQUIRES: `t` is int64-backed and `x` is within its range.
  static Value Int(ValueType t, int64_t x) {
    Value v(t);
    v.u_.i = x;
    return v;
  }
  static Value Float(double x) {
    Value v(ValueType::kFloat);
    v.u_.d = x;
    return v;
  }
  // REQUIRES: |unscaled| <= kDecimalMaxUnscaled.
  static Value Decimal(int128 unscaled) {
    Value v(ValueType::kDecimal);
    v.u_.dec = unscaled;
    return v;
  }
  // The bytes must outlive the Value (see the class comment).
  static Value Varchar(std::string_view s) { return Bytes(ValueType::kVarchar, s); }
  static Value Varbinary(std::string_view s) { return Bytes(ValueType::kVarbinary, s); }
  static Value Bytes(ValueType t, std::string_view s) {
    Value v(t);
    v.u_.str.data = s.data();
    v.u_.str.size = static_cast<uint32_t>(s.size());
    return v;
  }

  ValueType type() const { return type_; }
  bool is_null() const { return null_; }
  int64_t int_value() const { return u_.i; }
  double float_value() const { return u_.d; }
  int128 decimal_value() const { return u_.dec; }
  bool bool_value() const { return u_.i != 0; }
  std::string_view string_value() const { return {u_.str.data, u_.str.size}; }

  // Readable text for messages and tests: 'abc', 12, 1.5, NULL, x'0aff'.
  std::string ToString() const;

 private:
  explicit Value(ValueType t) : type_(t), null_(false) {}

  union {
    int64_t i;
    double d;
    int128 dec;
    struct {
      const char* data;
      uint32_t size;
    } str;
  } u_;
  ValueType type_;
  bool null_;
};

// Three-way comparison of two non-NULL values of comparable types (numbers
// with numbers, strings with strings, timestamps with timestamps or
// integers). Returns <0, 0, >0.
int CompareValues(const Value& a, const Value& b);

// SQL equality of two non-NULL values (numbers compare by value across types).
inline bool ValuesEqual(const Value& a, const Value& b) { return CompareValues(a, b) == 0; }

// Hash consistent with ValuesEqual for values of the same type family.
uint64_t HashValue(const Value& v);

// Mixes 64-bit hashes.
inline uint64_t HashCombine(uint64_t seed, uint64_t h) {
  return (seed ^ h) * 0x9E3779B97F4A7C15ULL + (seed << 6) + (seed >> 2);
}

}  // namespace partita

#endif  // PARTITA_VALUE_H_
