#include "partita/value.h"

#include <cmath>
#include <cstdio>

#include "plan.pb.h"
#include "types/decimal.h"

namespace partita {

// value_type.h numbers ValueType without the generated header; these keep
// its numbers equal to plan.proto's.
static_assert(static_cast<int>(ValueType::kInvalid) == proto::VALUE_TYPE_UNSPECIFIED);
static_assert(static_cast<int>(ValueType::kNull) == proto::VALUE_TYPE_NULL);
static_assert(static_cast<int>(ValueType::kTinyInt) == proto::VALUE_TYPE_TINYINT);
static_assert(static_cast<int>(ValueType::kSmallInt) == proto::VALUE_TYPE_SMALLINT);
static_assert(static_cast<int>(ValueType::kInteger) == proto::VALUE_TYPE_INTEGER);
static_assert(static_cast<int>(ValueType::kBigInt) == proto::VALUE_TYPE_BIGINT);
static_assert(static_cast<int>(ValueType::kFloat) == proto::VALUE_TYPE_FLOAT);
static_assert(static_cast<int>(ValueType::kDecimal) == proto::VALUE_TYPE_DECIMAL);
static_assert(static_cast<int>(ValueType::kVarchar) == proto::VALUE_TYPE_VARCHAR);
static_assert(static_cast<int>(ValueType::kVarbinary) == proto::VALUE_TYPE_VARBINARY);
static_assert(static_cast<int>(ValueType::kTimestamp) == proto::VALUE_TYPE_TIMESTAMP);
static_assert(static_cast<int>(ValueType::kBoolean) == proto::VALUE_TYPE_BOOLEAN);
static_assert(proto::ValueType_MAX == proto::VALUE_TYPE_BOOLEAN, "plan.proto has a type value_type.h lacks");

bool IsKnownValueType(int t) {
  return proto::ValueType_IsValid(t) && t != proto::VALUE_TYPE_UNSPECIFIED;
}

std::string_view TypeName(ValueType t) {
  switch (t) {
    case ValueType::kNull: return "NULL";
    case ValueType::kTinyInt: return "TINYINT";
    case ValueType::kSmallInt: return "SMALLINT";
    case ValueType::kInteger: return "INTEGER";
    case ValueType::kBigInt: return "BIGINT";
    case ValueType::kFloat: return "FLOAT";
    case ValueType::kDecimal: return "DECIMAL";
    case ValueType::kVarchar: return "VARCHAR";
    case ValueType::kVarbinary: return "VARBINARY";
    case ValueType::kTimestamp: return "TIMESTAMP";
    case ValueType::kBoolean: return "BOOLEAN";
    case ValueType::kInvalid: break;
  }
  return "INVALID";
}

int FixedSize(ValueType t) {
  switch (t) {
    case ValueType::kTinyInt:
    case ValueType::kBoolean: return 1;
    case ValueType::kSmallInt: return 2;
    case ValueType::kInteger: return 4;
    case ValueType::kBigInt:
    case ValueType::kFloat:
    case ValueType::kTimestamp: return 8;
    case ValueType::kDecimal: return 16;
    default: return 0;
  }
}

int64_t IntegerMin(ValueType t) {
  switch (t) {
    case ValueType::kTinyInt: return INT8_MIN;
    case ValueType::kSmallInt: return INT16_MIN;
    case ValueType::kInteger: return INT32_MIN;
    default: return INT64_MIN;
  }
}

int64_t IntegerMax(ValueType t) {
  switch (t) {
    case ValueType::kTinyInt: return INT8_MAX;
    case ValueType::kSmallInt: return INT16_MAX;
    case ValueType::kInteger: return INT32_MAX;
    default: return INT64_MAX;
  }
}

namespace {

template <typename T>
int Sign(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// FLOAT vs exact numbers compare as doubles; NaN sorts after everything.
int CompareDoubles(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) - std::isnan(b);
  return Sign(a, b);
}

double AsDouble(const Value& v) {
  if (v.type() == ValueType::kFloat) return v.float_value();
  if (v.type() == ValueType::kDecimal) return decimal::ToDouble(v.decimal_value());
  return static_cast<double>(v.int_value());
}

// Hash bits of a double: a whole value in BIGINT range hashes as that
// integer, anything else by its IEEE bits (-0.0 as 0).
uint64_t DoubleHashBits(double d) {
  if (d == 0) d = 0;  // -0.0 equals 0.0
  if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
    return static_cast<uint64_t>(static_cast<int64_t>(d));
  }
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

int128 AsDecimal(const Value& v) {
  if (v.type() == ValueType::kDecimal) return v.decimal_value();
  return static_cast<int128>(v.int_value()) * kDecimalScaleFactor;
}

}  // namespace

int CompareValues(const Value& a, const Value& b) {
  const ValueType ta = a.type(), tb = b.type();
  if (IsVariableLengthType(ta)) {
    const std::string_view x = a.string_value(), y = b.string_value();
    const size_t n = std::min(x.size(), y.size());
    const int c = n == 0 ? 0 : std::memcmp(x.data(), y.data(), n);  // an empty view may hold nullptr
    return c != 0 ? (c < 0 ? -1 : 1) : Sign(x.size(), y.size());
  }
  if (IsInt64Backed(ta) && IsInt64Backed(tb)) return Sign(a.int_value(), b.int_value());
  if (ta == ValueType::kFloat || tb == ValueType::kFloat) return CompareDoubles(AsDouble(a), AsDouble(b));
  return Sign(AsDecimal(a), AsDecimal(b));
}

// Exact numbers beyond 2^53 that equal a FLOAT only after rounding to double
// (CompareValues is not transitive there) may hash differently from it.
uint64_t HashValue(const Value& v) {
  constexpr uint64_t kNullHash = 0x6E756C6C6E756C6CULL;
  if (v.is_null()) return kNullHash;
  const ValueType t = v.type();
  uint64_t bits;
  if (IsVariableLengthType(t)) {
    // FNV-1a over the bytes, then a final mix.
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : v.string_value()) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
    bits = h;
  } else if (t == ValueType::kFloat) {
    bits = DoubleHashBits(v.float_value());
  } else if (t == ValueType::kDecimal) {
    // A whole DECIMAL in BIGINT range equals (and hashes as) that integer;
    // any other DECIMAL can equal only a FLOAT, which CompareValues matches
    // through ToDouble: hash the same double.
    const int128 u = v.decimal_value();
    if (decimal::IsWhole(u) && u / kDecimalScaleFactor <= INT64_MAX && u / kDecimalScaleFactor >= INT64_MIN) {
      bits = static_cast<uint64_t>(static_cast<int64_t>(u / kDecimalScaleFactor));
    } else {
      bits = DoubleHashBits(decimal::ToDouble(u));
    }
  } else {
    bits = static_cast<uint64_t>(v.int_value());
  }
  // splitmix64 finalizer.
  bits ^= bits >> 30;
  bits *= 0xbf58476d1ce4e5b9ULL;
  bits ^= bits >> 27;
  bits *= 0x94d049bb133111ebULL;
  return bits ^ (bits >> 31);
}

std::string Value::ToString() const {
  if (null_) return "NULL";
  switch (type_) {
    case ValueType::kFloat: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", u_.d);
      return buf;
    }
    case ValueType::kDecimal: return decimal::Format(u_.dec);
    case ValueType::kVarchar: return "'" + std::string(string_value()) + "'";
    case ValueType::kVarbinary: {
      static constexpr char kHex[] = "0123456789abcdef";
      std::string out = "x'";
      for (const char c : string_value()) {
        out += kHex[static_cast<uint8_t>(c) >> 4];
        out += kHex[static_cast<uint8_t>(c) & 15];
      }
      return out + "'";
    }
    case ValueType::kBoolean: return u_.i ? "TRUE" : "FALSE";
    default: return std::to_string(u_.i);
  }
}

}  // namespace partita
