#include "expr/time_function_expression.h"

#include <string>

#include "common/assert.h"
#include "errors.pb.h"
#include "expr/expression_util.h"
#include "types/timestamp.h"

namespace partita::expr {
namespace {

constexpr int64_t kMicrosPerMilli = 1000;

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

TimeFunctionExpression::TimeFunctionExpression(ValueType type, proto::Function fn, std::unique_ptr<Expression> arg)
    : Expression(type), fn_(fn), arg_(std::move(arg)) {
  PARTITA_ASSERT((arg_ == nullptr) == (fn == proto::FUNCTION_CURRENT_TIMESTAMP),
                 "only CURRENT_TIMESTAMP takes no argument");
}

Status TimeFunctionExpression::IntResult(int64_t x, Value* out) const {
  PARTITA_RETURN_IF_ERROR(CheckIntResult(x, type(), [&] { return proto::Function_Name(fn_); }));
  *out = Value::Int(type(), x);
  return Status::OK();
}

Status TimeFunctionExpression::ToTimestamp(int64_t n, int64_t micros_per_unit, Value* out) const {
  int64_t micros;
  if (__builtin_mul_overflow(n, micros_per_unit, &micros) || micros < timestamp::kMinMicros ||
      micros > timestamp::kMaxMicros) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                  proto::Function_Name(fn_) + "(" + std::to_string(n) + ") is outside years 0001..9999");
  }
  *out = Value::Timestamp(micros);
  return Status::OK();
}

Status TimeFunctionExpression::Eval(const EvalContext& ctx, Value* out) const {
  using timestamp::kMicrosPerDay, timestamp::kMicrosPerHour, timestamp::kMicrosPerMinute,
      timestamp::kMicrosPerSecond;
  if (arg_ == nullptr) {
    *out = Value::Timestamp(ctx.txn_timestamp);
    return Status::OK();
  }
  Value v;
  PARTITA_RETURN_IF_ERROR(arg_->Eval(ctx, &v));
  if (v.is_null()) {
    *out = Value::Null(type());
    return Status::OK();
  }
  int64_t x;
  PARTITA_RETURN_IF_ERROR(IntOperand(v, proto::Function_Name(fn_), &x));
  const bool from_timestamp = fn_ != proto::FUNCTION_TO_TIMESTAMP_SECONDS &&
                              fn_ != proto::FUNCTION_TO_TIMESTAMP_MILLIS && fn_ != proto::FUNCTION_TO_TIMESTAMP_MICROS;
  if (from_timestamp && (x < timestamp::kMinMicros || x > timestamp::kMaxMicros)) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE,
                  proto::Function_Name(fn_) + ": " + v.ToString() + " is not a TIMESTAMP of years 0001..9999");
  }
  switch (fn_) {
    case proto::FUNCTION_TO_TIMESTAMP_SECONDS: return ToTimestamp(x, kMicrosPerSecond, out);
    case proto::FUNCTION_TO_TIMESTAMP_MILLIS: return ToTimestamp(x, kMicrosPerMilli, out);
    case proto::FUNCTION_TO_TIMESTAMP_MICROS: return ToTimestamp(x, 1, out);
    case proto::FUNCTION_SINCE_EPOCH_SECONDS: return IntResult(FloorDiv(x, kMicrosPerSecond), out);
    case proto::FUNCTION_SINCE_EPOCH_MILLIS: return IntResult(FloorDiv(x, kMicrosPerMilli), out);
    case proto::FUNCTION_SINCE_EPOCH_MICROS: return IntResult(x, out);
    case proto::FUNCTION_TRUNCATE_DAY: *out = Value::Timestamp(FloorDiv(x, kMicrosPerDay) * kMicrosPerDay); break;
    case proto::FUNCTION_TRUNCATE_HOUR: *out = Value::Timestamp(FloorDiv(x, kMicrosPerHour) * kMicrosPerHour); break;
    case proto::FUNCTION_TRUNCATE_MINUTE:
      *out = Value::Timestamp(FloorDiv(x, kMicrosPerMinute) * kMicrosPerMinute);
      break;
    default: {
      const timestamp::CivilTime t = timestamp::ToCivil(x);
      switch (fn_) {
        case proto::FUNCTION_EXTRACT_YEAR: return IntResult(t.year, out);
        case proto::FUNCTION_EXTRACT_MONTH: return IntResult(t.month, out);
        case proto::FUNCTION_EXTRACT_DAY: return IntResult(t.day, out);
        case proto::FUNCTION_EXTRACT_HOUR: return IntResult(t.hour, out);
        case proto::FUNCTION_EXTRACT_MINUTE: return IntResult(t.minute, out);
        case proto::FUNCTION_EXTRACT_SECOND: return IntResult(t.second, out);
        case proto::FUNCTION_EXTRACT_DAY_OF_WEEK: return IntResult(t.day_of_week, out);
        case proto::FUNCTION_EXTRACT_DAY_OF_YEAR: return IntResult(t.day_of_year, out);
        default: PARTITA_ASSERT(false, "not a time function");
      }
    }
  }
  return Status::OK();
}

}  // namespace partita::expr
