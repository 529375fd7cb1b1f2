// ArithmeticExpression: + - * / % and unary minus over numbers (and
// TIMESTAMP +/- micros), computed in the family of the result type:
//   integers and TIMESTAMP  int64 with overflow checks, then the result
//                           type's range (NUMERIC_OUT_OF_RANGE);
//   FLOAT                   double; a non-finite result is out of range;
//   DECIMAL                 decimal.h (38 digits, scale 12).
// Operands of another type are first converted to the result's family
// (integers widen; FLOAT/DECIMAL into an integer result only when whole).
// Division truncates toward zero; x % y has the sign of x; dividing by zero
// is DIVISION_BY_ZERO in every family. A NULL operand gives NULL.
//
// Ownership: owns its operands. Thread model: immutable; partition-confined.
#ifndef PARTITA_EXPR_ARITHMETIC_EXPRESSION_H_
#define PARTITA_EXPR_ARITHMETIC_EXPRESSION_H_

#include <memory>

#include "expr/expression.h"

namespace partita::expr {

enum class ArithmeticOp { kAdd, kSubtract, kMultiply, kDivide, kModulo, kNegate };

class ArithmeticExpression final : public Expression {
 public:
  // REQUIRES: `type` is numeric or TIMESTAMP; `right` is null iff op is
  // kNegate.
  ArithmeticExpression(ValueType type, ArithmeticOp op, std::unique_ptr<Expression> left,
                       std::unique_ptr<Expression> right);

  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  Status EvalInteger(const Value& a, const Value& b, Value* out) const;
  Status EvalFloat(const Value& a, const Value& b, Value* out) const;
  Status EvalDecimal(const Value& a, const Value& b, Value* out) const;
  // "a + b" or "-a" for error messages.
  std::string Describe(const Value& a, const Value& b) const;

  ArithmeticOp op_;
  std::unique_ptr<Expression> left_;
  std::unique_ptr<Expression> right_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_ARITHMETIC_EXPRESSION_H_
