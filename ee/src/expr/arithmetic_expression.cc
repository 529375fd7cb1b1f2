#include "expr/arithmetic_expression.h"

#include <cmath>
#include <string>

#include "common/assert.h"
#include "errors.pb.h"
#include "expr/expression_util.h"
#include "types/decimal.h"

namespace partita::expr {
namespace {

const char* Symbol(ArithmeticOp op) {
  switch (op) {
    case ArithmeticOp::kAdd: return " + ";
    case ArithmeticOp::kSubtract: return " - ";
    case ArithmeticOp::kMultiply: return " * ";
    case ArithmeticOp::kDivide: return " / ";
    case ArithmeticOp::kModulo: return " % ";
    case ArithmeticOp::kNegate: return "-";
  }
  return "?";
}

Status TypeError(const Value& v, ValueType family) {
  return Status(proto::ERROR_CODE_TYPE_MISMATCH, "arithmetic on " + std::string(TypeName(v.type())) + " " +
                                                     v.ToString() + " in a " + std::string(TypeName(family)) +
                                                     " expression");
}

Status FloatOperand(const Value& v, double* out) {
  if (v.type() == ValueType::kFloat) {
    *out = v.float_value();
  } else if (IsInt64Backed(v.type())) {
    *out = static_cast<double>(v.int_value());
  } else if (v.type() == ValueType::kDecimal) {
    *out = decimal::ToDouble(v.decimal_value());
  } else {
    return TypeError(v, ValueType::kFloat);
  }
  return Status::OK();
}

Status DecimalOperand(const Value& v, int128* out) {
  Result<int128> r = int128{0};
  if (v.type() == ValueType::kDecimal) {
    r = v.decimal_value();
  } else if (IsIntegerType(v.type())) {
    r = decimal::FromInt(v.int_value());
  } else if (v.type() == ValueType::kFloat) {
    r = decimal::FromDouble(v.float_value());
  } else {
    return TypeError(v, ValueType::kDecimal);
  }
  if (!r.ok()) return r.status();
  *out = r.value();
  return Status::OK();
}

// Returns true iff x + y (x - y when `subtract`) overflows int128.
bool WrapsInt128(int128 x, int128 y, bool subtract) {
  int128 r;
  return subtract ? __builtin_sub_overflow(x, y, &r) : __builtin_add_overflow(x, y, &r);
}

Status DecimalOverflow(const char* what) {
  return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE, std::string("DECIMAL ") + what + " exceeds precision 38");
}

}  // namespace

ArithmeticExpression::ArithmeticExpression(ValueType type, ArithmeticOp op, std::unique_ptr<Expression> left,
                                           std::unique_ptr<Expression> right)
    : Expression(type), op_(op), left_(std::move(left)), right_(std::move(right)) {
  PARTITA_ASSERT(IsNumericType(type) || type == ValueType::kTimestamp, "arithmetic needs a numeric result type");
  PARTITA_ASSERT((right_ == nullptr) == (op == ArithmeticOp::kNegate), "only NEGATE has one operand");
}

Status ArithmeticExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value a, b;
  PARTITA_RETURN_IF_ERROR(left_->Eval(ctx, &a));
  if (right_ != nullptr) {
    PARTITA_RETURN_IF_ERROR(right_->Eval(ctx, &b));
  } else {
    b = Value::BigInt(0);  // unused operand of NEGATE
  }
  if (a.is_null() || b.is_null()) {
    *out = Value::Null(type());
    return Status::OK();
  }
  switch (type()) {
    case ValueType::kFloat: return EvalFloat(a, b, out);
    case ValueType::kDecimal: return EvalDecimal(a, b, out);
    default: return EvalInteger(a, b, out);
  }
}

Status ArithmeticExpression::EvalInteger(const Value& a, const Value& b, Value* out) const {
  int64_t x, y, r = 0;
  PARTITA_RETURN_IF_ERROR(IntOperand(a, "arithmetic operand", &x));
  PARTITA_RETURN_IF_ERROR(IntOperand(b, "arithmetic operand", &y));
  bool overflow = false;
  switch (op_) {
    case ArithmeticOp::kAdd: overflow = __builtin_add_overflow(x, y, &r); break;
    case ArithmeticOp::kSubtract: overflow = __builtin_sub_overflow(x, y, &r); break;
    case ArithmeticOp::kMultiply: overflow = __builtin_mul_overflow(x, y, &r); break;
    case ArithmeticOp::kNegate: overflow = __builtin_sub_overflow(int64_t{0}, x, &r); break;
    case ArithmeticOp::kDivide:
    case ArithmeticOp::kModulo:
      if (y == 0) {
        return Status(proto::ERROR_CODE_DIVISION_BY_ZERO, "division by zero in " + Describe(a, b));
      }
      if (y == -1) {  // INT64_MIN / -1 overflows; INT64_MIN % -1 is UB in C++
        if (op_ == ArithmeticOp::kModulo) break;
        overflow = __builtin_sub_overflow(int64_t{0}, x, &r);
      } else {
        r = op_ == ArithmeticOp::kDivide ? x / y : x % y;
      }
      break;
  }
  if (overflow) return IntOverflow(type(), Describe(a, b));
  PARTITA_RETURN_IF_ERROR(CheckIntResult(r, type(), [&] { return Describe(a, b); }));
  *out = Value::Int(type(), r);
  return Status::OK();
}

Status ArithmeticExpression::EvalFloat(const Value& a, const Value& b, Value* out) const {
  double x, y, r = 0;
  PARTITA_RETURN_IF_ERROR(FloatOperand(a, &x));
  PARTITA_RETURN_IF_ERROR(FloatOperand(b, &y));
  switch (op_) {
    case ArithmeticOp::kAdd: r = x + y; break;
    case ArithmeticOp::kSubtract: r = x - y; break;
    case ArithmeticOp::kMultiply: r = x * y; break;
    case ArithmeticOp::kNegate: r = -x; break;
    case ArithmeticOp::kDivide:
    case ArithmeticOp::kModulo:
      if (y == 0) return Status(proto::ERROR_CODE_DIVISION_BY_ZERO, "division by zero in " + Describe(a, b));
      r = op_ == ArithmeticOp::kDivide ? x / y : std::fmod(x, y);
      break;
  }
  if (!std::isfinite(r)) {
    return Status(proto::ERROR_CODE_NUMERIC_OUT_OF_RANGE, "FLOAT overflow in " + Describe(a, b));
  }
  *out = Value::Float(r);
  return Status::OK();
}

Status ArithmeticExpression::EvalDecimal(const Value& a, const Value& b, Value* out) const {
  int128 x, y;
  PARTITA_RETURN_IF_ERROR(DecimalOperand(a, &x));
  PARTITA_RETURN_IF_ERROR(DecimalOperand(b, &y));
  Result<int128> r = int128{0};
  switch (op_) {
    // decimal::Add/Subtract assume the int128 sum cannot wrap; two values
    // near the 38-digit bound can, so wrapping is caught here first.
    case ArithmeticOp::kAdd:
      r = WrapsInt128(x, y, false) ? DecimalOverflow("sum") : decimal::Add(x, y);
      break;
    case ArithmeticOp::kSubtract:
      r = WrapsInt128(x, y, true) ? DecimalOverflow("difference") : decimal::Subtract(x, y);
      break;
    case ArithmeticOp::kMultiply: r = decimal::Multiply(x, y); break;
    case ArithmeticOp::kDivide: r = decimal::Divide(x, y); break;
    case ArithmeticOp::kNegate: r = -x; break;  // the bound is symmetric
    case ArithmeticOp::kModulo:
      // Both operands carry the same scale, so the unscaled remainder is the
      // scaled remainder.
      if (y == 0) return Status(proto::ERROR_CODE_DIVISION_BY_ZERO, "division by zero in " + Describe(a, b));
      r = x % y;
      break;
  }
  if (!r.ok()) return Status(r.status().code(), r.status().message() + " in " + Describe(a, b));
  *out = Value::Decimal(r.value());
  return Status::OK();
}

std::string ArithmeticExpression::Describe(const Value& a, const Value& b) const {
  if (op_ == ArithmeticOp::kNegate) return std::string(Symbol(op_)) + a.ToString();
  return a.ToString() + Symbol(op_) + b.ToString();
}

}  // namespace partita::expr
