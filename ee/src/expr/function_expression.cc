#include "expr/function_expression.h"

#include <cmath>
#include <iterator>
#include <string>

#include "common/assert.h"
#include "expr/arithmetic_expression.h"
#include "expr/string_function_expression.h"
#include "expr/time_function_expression.h"

namespace partita::expr {
namespace {

// The result types a function may be declared with.
enum class ResultClass { kAny, kNumeric, kInteger, kText, kTimestamp };
enum class Family { kGeneral, kString, kTime, kMod };

struct FunctionInfo {
  int min_args;
  int max_args;  // -1 = unbounded
  ResultClass result;
  Family family;
};

// Returns false iff `fn` is not a known function.
bool Lookup(proto::Function fn, FunctionInfo* info) {
  using F = proto::Function;
  switch (fn) {
    case F::FUNCTION_COALESCE: *info = {1, -1, ResultClass::kAny, Family::kGeneral}; return true;
    case F::FUNCTION_NULLIF: *info = {2, 2, ResultClass::kAny, Family::kGeneral}; return true;
    case F::FUNCTION_ABS: *info = {1, 1, ResultClass::kNumeric, Family::kGeneral}; return true;
    case F::FUNCTION_MOD: *info = {2, 2, ResultClass::kNumeric, Family::kMod}; return true;
    case F::FUNCTION_CHAR_LENGTH:
    case F::FUNCTION_OCTET_LENGTH: *info = {1, 1, ResultClass::kInteger, Family::kString}; return true;
    case F::FUNCTION_SUBSTRING: *info = {2, 3, ResultClass::kText, Family::kString}; return true;
    case F::FUNCTION_UPPER:
    case F::FUNCTION_LOWER:
    case F::FUNCTION_TRIM:
    case F::FUNCTION_LTRIM:
    case F::FUNCTION_RTRIM: *info = {1, 1, ResultClass::kText, Family::kString}; return true;
    case F::FUNCTION_CONCAT: *info = {1, -1, ResultClass::kText, Family::kString}; return true;
    case F::FUNCTION_EXTRACT_YEAR:
    case F::FUNCTION_EXTRACT_MONTH:
    case F::FUNCTION_EXTRACT_DAY:
    case F::FUNCTION_EXTRACT_HOUR:
    case F::FUNCTION_EXTRACT_MINUTE:
    case F::FUNCTION_EXTRACT_SECOND:
    case F::FUNCTION_EXTRACT_DAY_OF_WEEK:
    case F::FUNCTION_EXTRACT_DAY_OF_YEAR:
    case F::FUNCTION_SINCE_EPOCH_SECONDS:
    case F::FUNCTION_SINCE_EPOCH_MILLIS:
    case F::FUNCTION_SINCE_EPOCH_MICROS: *info = {1, 1, ResultClass::kInteger, Family::kTime}; return true;
    case F::FUNCTION_TO_TIMESTAMP_SECONDS:
    case F::FUNCTION_TO_TIMESTAMP_MILLIS:
    case F::FUNCTION_TO_TIMESTAMP_MICROS:
    case F::FUNCTION_TRUNCATE_DAY:
    case F::FUNCTION_TRUNCATE_HOUR:
    case F::FUNCTION_TRUNCATE_MINUTE: *info = {1, 1, ResultClass::kTimestamp, Family::kTime}; return true;
    case F::FUNCTION_CURRENT_TIMESTAMP: *info = {0, 0, ResultClass::kTimestamp, Family::kTime}; return true;
    default: return false;
  }
}

bool Fits(ResultClass c, ValueType t) {
  switch (c) {
    case ResultClass::kAny: return true;
    case ResultClass::kNumeric: return IsNumericType(t);
    case ResultClass::kInteger: return IsIntegerType(t);
    case ResultClass::kText: return IsVariableLengthType(t);
    case ResultClass::kTimestamp: return t == ValueType::kTimestamp;
  }
  return false;
}

}  // namespace

Result<std::unique_ptr<Expression>> BuildFunction(const proto::Expression& e, ValueType type, ExpressionList args) {
  const proto::Function fn = e.function();
  FunctionInfo info;
  if (!Lookup(fn, &info)) return BadPlan("unknown FUNCTION " + std::to_string(static_cast<int>(fn)));
  const std::string& name = proto::Function_Name(fn);
  const int n = static_cast<int>(args.size());
  if (n < info.min_args || (info.max_args >= 0 && n > info.max_args)) {
    return BadPlan(name + " cannot take " + std::to_string(n) + " arguments");
  }
  if (!Fits(info.result, type)) return BadPlan(name + " cannot produce " + std::string(TypeName(type)));
  switch (info.family) {
    case Family::kGeneral:
      return std::unique_ptr<Expression>(std::make_unique<FunctionExpression>(type, fn, std::move(args)));
    case Family::kMod:
      return std::unique_ptr<Expression>(std::make_unique<ArithmeticExpression>(
          type, ArithmeticOp::kModulo, std::move(args[0]), std::move(args[1])));
    case Family::kTime:
      return std::unique_ptr<Expression>(
          std::make_unique<TimeFunctionExpression>(type, fn, args.empty() ? nullptr : std::move(args[0])));
    case Family::kString: break;
  }
  if (fn == proto::FUNCTION_CONCAT && args.size() > StringFunctionExpression::kMaxConcatArgs) {
    // CONCAT(a0, ..., ak, rest...) = CONCAT(a0, ..., CONCAT(ak, rest...)).
    const size_t keep = StringFunctionExpression::kMaxConcatArgs - 1;
    ExpressionList tail(std::make_move_iterator(args.begin() + keep), std::make_move_iterator(args.end()));
    args.resize(keep);
    Result<std::unique_ptr<Expression>> inner = BuildFunction(e, type, std::move(tail));
    if (!inner.ok()) return inner.status();
    args.push_back(std::move(inner.value()));
  }
  return std::unique_ptr<Expression>(std::make_unique<StringFunctionExpression>(type, fn, std::move(args)));
}

FunctionExpression::FunctionExpression(ValueType type, proto::Function fn, ExpressionList args)
    : Expression(type), fn_(fn), args_(std::move(args)) {
  PARTITA_ASSERT(!args_.empty(), "COALESCE, NULLIF and ABS take arguments");
}

Status FunctionExpression::Eval(const EvalContext& ctx, Value* out) const {
  if (fn_ == proto::FUNCTION_NULLIF) return EvalNullIf(ctx, out);
  if (fn_ == proto::FUNCTION_ABS) return EvalAbs(ctx, out);
  for (const std::unique_ptr<Expression>& arg : args_) {  // COALESCE
    Value v;
    PARTITA_RETURN_IF_ERROR(arg->Eval(ctx, &v));
    if (!v.is_null()) return CoerceToType(v, type(), ctx.arena, out);
  }
  *out = Value::Null(type());
  return Status::OK();
}

Status FunctionExpression::EvalNullIf(const EvalContext& ctx, Value* out) const {
  Value a, b;
  PARTITA_RETURN_IF_ERROR(args_[0]->Eval(ctx, &a));
  if (a.is_null()) {
    *out = Value::Null(type());
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(args_[1]->Eval(ctx, &b));
  if (!b.is_null()) {
    int c;
    PARTITA_RETURN_IF_ERROR(CompareNonNull(a, b, &c));
    if (c == 0) {
      *out = Value::Null(type());
      return Status::OK();
    }
  }
  return CoerceToType(a, type(), ctx.arena, out);
}

Status FunctionExpression::EvalAbs(const EvalContext& ctx, Value* out) const {
  Value v;
  PARTITA_RETURN_IF_ERROR(args_[0]->Eval(ctx, &v));
  Value x;
  PARTITA_RETURN_IF_ERROR(CoerceToType(v, type(), ctx.arena, &x));
  if (x.is_null()) {
    *out = x;
    return Status::OK();
  }
  if (type() == ValueType::kFloat) {
    *out = Value::Float(std::fabs(x.float_value()));
  } else if (type() == ValueType::kDecimal) {
    *out = Value::Decimal(x.decimal_value() < 0 ? -x.decimal_value() : x.decimal_value());
  } else {
    const int64_t i = x.int_value();
    if (i == INT64_MIN) return IntOverflow(type(), "ABS(" + x.ToString() + ")");
    const int64_t r = i < 0 ? -i : i;
    PARTITA_RETURN_IF_ERROR(CheckIntResult(r, type(), [&] { return "ABS(" + x.ToString() + ")"; }));
    *out = Value::Int(type(), r);
  }
  return Status::OK();
}

}  // namespace partita::expr
