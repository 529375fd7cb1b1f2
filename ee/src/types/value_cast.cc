#include "types/value_cast.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "errors.pb.h"
#include "types/decimal.h"
#include "types/timestamp.h"
#include "types/utf8.h"

namespace partita {
namespace {

Status OutOfRange(const Value& v, ValueType target, std::string_view what) {
  return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE, "value " + v.ToString() + " is out of range for " +
                                                            std::string(TypeName(target)) + " " + std::string(what));
}

Status Mismatch(const Value& v, ValueType target, std::string_view what) {
  return Status(proto::ERROR_CODE_TYPE_MISMATCH, "cannot convert " + std::string(TypeName(v.type())) + " " +
                                                     v.ToString() + " to " + std::string(TypeName(target)) + " for " +
                                                     std::string(what));
}

Result<Value> ToInteger(const Value& v, ValueType target, ConversionMode mode, std::string_view what) {
  int64_t x;
  if (IsInt64Backed(v.type())) {
    x = v.int_value();
  } else if (v.type() == ValueType::kFloat) {
    double d = v.float_value();
    if (mode == ConversionMode::kExact && d != std::trunc(d)) return OutOfRange(v, target, what);
    d = std::trunc(d);
    if (!std::isfinite(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0) {
      return OutOfRange(v, target, what);
    }
    x = static_cast<int64_t>(d);
  } else if (v.type() == ValueType::kDecimal) {
    if (mode == ConversionMode::kExact && !decimal::IsWhole(v.decimal_value())) return OutOfRange(v, target, what);
    Result<int64_t> r = decimal::ToInt(v.decimal_value());
    if (!r.ok()) return OutOfRange(v, target, what);
    x = r.value();
  } else if (v.type() == ValueType::kVarchar && mode == ConversionMode::kCast) {
    std::string_view s = v.string_value();
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
    if (ec == std::errc::result_out_of_range) return OutOfRange(v, target, what);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return Mismatch(v, target, what);
  } else {
    return Mismatch(v, target, what);
  }
  if (x < IntegerMin(target) || x > IntegerMax(target)) return OutOfRange(v, target, what);
  return Value::Int(target, x);
}

Result<Value> ToFloat(const Value& v, ConversionMode mode, std::string_view what) {
  if (IsIntegerType(v.type())) return Value::Float(static_cast<double>(v.int_value()));
  if (v.type() == ValueType::kDecimal) return Value::Float(decimal::ToDouble(v.decimal_value()));
  if (v.type() == ValueType::kVarchar && mode == ConversionMode::kCast) {
    const std::string s(v.string_value());
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    while (end && *end == ' ') ++end;
    if (s.empty() || end == s.c_str() || *end != '\0') return Mismatch(v, ValueType::kFloat, what);
    // strtod answers HUGE_VAL for "1e400" (and accepts "inf"/"nan"): no
    // silent infinities.
    if (!std::isfinite(d)) return OutOfRange(v, ValueType::kFloat, what);
    return Value::Float(d);
  }
  return Mismatch(v, ValueType::kFloat, what);
}

Result<Value> ToDecimal(const Value& v, ConversionMode mode, std::string_view what) {
  Result<int128> r = Status();
  if (IsIntegerType(v.type())) {
    r = decimal::FromInt(v.int_value());
  } else if (v.type() == ValueType::kFloat) {
    r = decimal::FromDouble(v.float_value());
  } else if (v.type() == ValueType::kVarchar && mode == ConversionMode::kCast) {
    r = decimal::Parse(v.string_value());
  } else {
    return Mismatch(v, ValueType::kDecimal, what);
  }
  if (!r.ok()) return r.status().code() == proto::ERROR_CODE_TYPE_MISMATCH ? r.status() : OutOfRange(v, ValueType::kDecimal, what);
  return Value::Decimal(r.value());
}

Result<Value> ToTimestamp(const Value& v, ConversionMode mode, std::string_view what) {
  if (IsIntegerType(v.type())) {
    if (v.int_value() < timestamp::kMinMicros || v.int_value() > timestamp::kMaxMicros) {
      return OutOfRange(v, ValueType::kTimestamp, what);
    }
    return Value::Timestamp(v.int_value());
  }
  if (v.type() == ValueType::kVarchar) {
    Result<int64_t> r = timestamp::Parse(v.string_value());
    if (!r.ok()) return r.status();
    return Value::Timestamp(r.value());
  }
  return Mismatch(v, ValueType::kTimestamp, what);
}

Result<Value> ToText(const Value& v, ValueType target, ConversionMode mode, Arena* arena, std::string_view what) {
  if (IsVariableLengthType(v.type())) {
    if (v.type() != target && (mode == ConversionMode::kExact || target == ValueType::kVarbinary)) {
      return Mismatch(v, target, what);
    }
    return Value::Bytes(target, v.string_value());
  }
  if (mode == ConversionMode::kExact || target == ValueType::kVarbinary) return Mismatch(v, target, what);
  std::string text;
  if (v.type() == ValueType::kTimestamp) {
    text = timestamp::Format(v.int_value());
  } else if (v.type() == ValueType::kFloat) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v.float_value());
    text = buf;
  } else {
    text = v.ToString();  // integers, DECIMAL, BOOLEAN
  }
  return Value::Varchar(arena->Copy(text));
}

}  // namespace

Status CheckLength(const Value& v, int32_t max_length, std::string_view what) {
  if (max_length <= 0 || v.is_null() || !IsVariableLengthType(v.type())) return Status::OK();
  const std::string_view s = v.string_value();
  // Fast path: byte length bounds character length.
  if (s.size() <= static_cast<size_t>(max_length)) return Status::OK();
  const size_t length = v.type() == ValueType::kVarchar ? utf8::CharCount(s) : s.size();
  if (length <= static_cast<size_t>(max_length)) return Status::OK();
  const char* unit = v.type() == ValueType::kVarchar ? " characters" : " bytes";
  return Status(proto::ERROR_CODE_VALUE_TOO_LONG, "value of " + std::to_string(length) + unit +
                                                      " exceeds the limit of " + std::to_string(max_length) +
                                                      unit + " for " + std::string(what));
}

Result<Value> ConvertValue(const Value& v, ValueType target, int32_t max_length, ConversionMode mode, Arena* arena,
                           std::string_view what) {
  if (v.is_null()) return Value::Null(target);
  if (v.type() == target) {
    PARTITA_RETURN_IF_ERROR(CheckLength(v, max_length, what));
    return v;
  }
  Result<Value> out = Value();
  switch (target) {
    case ValueType::kTinyInt:
    case ValueType::kSmallInt:
    case ValueType::kInteger:
    case ValueType::kBigInt: out = ToInteger(v, target, mode, what); break;
    case ValueType::kFloat: out = ToFloat(v, mode, what); break;
    case ValueType::kDecimal: out = ToDecimal(v, mode, what); break;
    case ValueType::kTimestamp: out = ToTimestamp(v, mode, what); break;
    case ValueType::kVarchar:
    case ValueType::kVarbinary: out = ToText(v, target, mode, arena, what); break;
    case ValueType::kBoolean:
      if (!IsIntegerType(v.type())) return Mismatch(v, target, what);
      out = Value::Boolean(v.int_value() != 0);
      break;
    default: return Mismatch(v, target, what);
  }
  if (!out.ok()) return out;
  PARTITA_RETURN_IF_ERROR(CheckLength(out.value(), max_length, what));
  return out;
}

}  // namespace partita
