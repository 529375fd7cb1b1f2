#include "expr/column_parameter_constant.h"

#include <string>

#include "errors.pb.h"
#include "expr/expression_util.h"
#include "plan.pb.h"
#include "types/decimal.h"
#include "types/value_cast.h"

namespace partita::expr {
namespace {

// The Value of a proto constant, typed as `c.type()` or, when that is
// UNSPECIFIED, as `declared`; strings view `c`.
Result<Value> ValueFromProto(const proto::Value& c, ValueType declared) {
  const int proto_type = c.type() == proto::VALUE_TYPE_UNSPECIFIED ? static_cast<int>(declared) : c.type();
  const ValueType type = static_cast<ValueType>(proto_type);
  const std::string type_name(TypeName(type));
  auto malformed = [&](const char* why) {
    return BadPlan("CONSTANT of type " + type_name + " " + why);
  };
  if (!IsKnownValueType(proto_type)) return malformed("has an unknown type");
  if (c.value_case() == proto::Value::VALUE_NOT_SET) return Value::Null(type);
  switch (type) {
    case ValueType::kTinyInt:
    case ValueType::kSmallInt:
    case ValueType::kInteger:
    case ValueType::kBigInt:
    case ValueType::kTimestamp:
    case ValueType::kBoolean: {
      if (c.value_case() != proto::Value::kIntValue) return malformed("needs int_value");
      const int64_t x = c.int_value();
      const int64_t lo = type == ValueType::kBoolean ? 0 : ResultMin(type);
      const int64_t hi = type == ValueType::kBoolean ? 1 : ResultMax(type);
      if (x < lo || x > hi) return malformed(("has out-of-range int_value " + std::to_string(x)).c_str());
      return Value::Int(type, x);
    }
    case ValueType::kFloat:
      if (c.value_case() != proto::Value::kFloatValue) return malformed("needs float_value");
      return Value::Float(c.float_value());
    case ValueType::kDecimal: {
      if (c.value_case() != proto::Value::kDecimalValue) return malformed("needs decimal_value");
      Result<int128> parsed = decimal::Parse(c.decimal_value());
      if (!parsed.ok()) return BadPlan("CONSTANT: " + parsed.status().message());
      return Value::Decimal(parsed.value());
    }
    case ValueType::kVarchar:
      if (c.value_case() != proto::Value::kStringValue) return malformed("needs string_value");
      return Value::Varchar(c.string_value());
    case ValueType::kVarbinary:
      if (c.value_case() != proto::Value::kBytesValue) return malformed("needs bytes_value");
      return Value::Varbinary(c.bytes_value());
    default:
      return malformed("cannot hold a value");
  }
}

}  // namespace

Status ParameterExpression::MissingParameter(const EvalContext& ctx) const {
  return Status(proto::ERROR_CODE_BAD_PARAMETER, "parameter " + std::to_string(index_) + " is missing: only " +
                                                     std::to_string(ctx.param_count) + " parameters given");
}

ConstantExpression::ConstantExpression(ValueType type, const Value& value) : Expression(type), value_(value) {
  if (!value.is_null() && IsVariableLengthType(value.type())) {
    bytes_ = std::string(value.string_value());
    value_ = Value::Bytes(value.type(), bytes_);
  }
}

Result<std::unique_ptr<Expression>> ConstantExpression::Create(const proto::Expression& e, ValueType type) {
  if (!e.has_constant()) return BadPlan("CONSTANT expression has no constant");
  Result<Value> parsed = ValueFromProto(e.constant(), type);
  if (!parsed.ok()) return parsed.status();
  Value value = parsed.value();
  Arena arena(1024);  // holds a converted string until the node copies it
  if (value.is_null()) {
    value = Value::Null(type);
  } else if (value.type() != type) {
    Result<Value> converted = ConvertValue(value, type, 0, ConversionMode::kExact, &arena, "CONSTANT");
    if (!converted.ok()) return BadPlan("CONSTANT: " + converted.status().message());
    value = converted.value();
  }
  return std::unique_ptr<Expression>(std::make_unique<ConstantExpression>(type, value));
}

}  // namespace partita::expr
