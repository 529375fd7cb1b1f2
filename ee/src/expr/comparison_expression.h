// ComparisonExpression: = <> < <= > >= with SQL semantics: NULL if either
// operand is NULL, else TRUE/FALSE. Numbers compare by value across types
// (CompareValues), strings bytewise, TIMESTAMP with TIMESTAMP or integers.
// Comparing incomparable types (VARCHAR with INTEGER) is TYPE_MISMATCH.
//
// Ownership: owns its operands. Thread model: immutable; partition-confined.
#ifndef PARTITA_EXPR_COMPARISON_EXPRESSION_H_
#define PARTITA_EXPR_COMPARISON_EXPRESSION_H_

#include <memory>

#include "expr/expression.h"

namespace partita::expr {

enum class CompareOp { kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual };

// Returns true iff a three-way comparison result `c` satisfies `op`.
inline bool Satisfies(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kEqual: return c == 0;
    case CompareOp::kNotEqual: return c != 0;
    case CompareOp::kLess: return c < 0;
    case CompareOp::kLessEqual: return c <= 0;
    case CompareOp::kGreater: return c > 0;
    case CompareOp::kGreaterEqual: return c >= 0;
  }
  return false;
}

class ComparisonExpression final : public Expression {
 public:
  ComparisonExpression(CompareOp op, std::unique_ptr<Expression> left, std::unique_ptr<Expression> right);

  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  CompareOp op_;
  std::unique_ptr<Expression> left_;
  std::unique_ptr<Expression> right_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_COMPARISON_EXPRESSION_H_
