#include "expr/expression_util.h"

#include <utility>

#include "errors.pb.h"
#include "types/timestamp.h"
#include "types/value_cast.h"

namespace partita::expr {

Status BadPlan(std::string message) { return Status(proto::ERROR_CODE_BAD_PLAN, std::move(message)); }

Status CompareMixed(const Value& a, const Value& b, int* result) {
  const ValueType ta = a.type(), tb = b.type();
  const bool text_a = IsVariableLengthType(ta), text_b = IsVariableLengthType(tb);
  if (text_a && text_b && ta == tb) {
    *result = CompareValues(a, b);
    return Status::OK();
  }
  const bool number_a = IsNumericType(ta) || IsInt64Backed(ta);
  const bool number_b = IsNumericType(tb) || IsInt64Backed(tb);
  if (number_a && number_b) {
    *result = CompareValues(a, b);
    return Status::OK();
  }
  // TIMESTAMP against a VARCHAR literal: the text is read as a timestamp.
  if ((ta == ValueType::kTimestamp && tb == ValueType::kVarchar) ||
      (ta == ValueType::kVarchar && tb == ValueType::kTimestamp)) {
    const bool a_is_text = ta == ValueType::kVarchar;
    Result<int64_t> parsed = timestamp::Parse((a_is_text ? a : b).string_value());
    if (!parsed.ok()) return parsed.status();
    const int64_t x = a_is_text ? parsed.value() : a.int_value();
    const int64_t y = a_is_text ? b.int_value() : parsed.value();
    *result = (x > y) - (x < y);
    return Status::OK();
  }
  return Status(proto::ERROR_CODE_TYPE_MISMATCH, "cannot compare " + std::string(TypeName(ta)) + " " + a.ToString() +
                                                     " with " + std::string(TypeName(tb)) + " " + b.ToString());
}

Status IntOperand(const Value& v, std::string_view what, int64_t* out) {
  if (IsInt64Backed(v.type())) {
    *out = v.int_value();
    return Status::OK();
  }
  Result<Value> converted = ConvertValue(v, ValueType::kBigInt, 0, ConversionMode::kExact, nullptr, what);
  if (!converted.ok()) return converted.status();
  *out = converted.value().int_value();
  return Status::OK();
}

Status CoerceToType(const Value& v, ValueType type, Arena* arena, Value* out) {
  if (v.is_null()) {
    *out = Value::Null(type);
    return Status::OK();
  }
  if (v.type() == type || type == ValueType::kNull) {
    *out = v;
    return Status::OK();
  }
  Result<Value> converted = ConvertValue(v, type, 0, ConversionMode::kExact, arena, "expression result");
  if (!converted.ok()) return converted.status();
  *out = converted.value();
  return Status::OK();
}

Status IntOverflow(ValueType type, const std::string& expression) {
  return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                std::string(TypeName(type)) + " overflow in " + expression);
}

int64_t ResultMin(ValueType type) {
  if (type == ValueType::kTimestamp) return timestamp::kMinMicros;
  return IntegerMin(type);
}

int64_t ResultMax(ValueType type) {
  if (type == ValueType::kTimestamp) return timestamp::kMaxMicros;
  return IntegerMax(type);
}

}  // namespace partita::expr
