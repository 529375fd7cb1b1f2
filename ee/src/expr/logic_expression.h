// Predicates with SQL three-valued logic:
//   AND      FALSE if any operand is FALSE, else NULL if any is NULL, else TRUE
//   OR       TRUE if any operand is TRUE, else NULL if any is NULL, else FALSE
//   NOT      NULL stays NULL
//   IS [NOT] NULL   never NULL
//   x IN (v1, ...)  TRUE on a match, else NULL if x or any vi is NULL, else
//                   FALSE
//   x BETWEEN lo AND hi   x >= lo AND x <= hi (with the AND rules above)
// AND/OR stop at the first deciding operand, so later operands are not
// evaluated (and cannot raise errors) once the result is known.
//
// Ownership: each node owns its operands. Thread model: immutable;
// partition-confined.
#ifndef PARTITA_EXPR_LOGIC_EXPRESSION_H_
#define PARTITA_EXPR_LOGIC_EXPRESSION_H_

#include <memory>

#include "expr/expression.h"
#include "expr/expression_util.h"

namespace partita::expr {

// AND (is_and) or OR over two or more operands.
class AndOrExpression final : public Expression {
 public:
  // REQUIRES: operands.size() >= 2.
  AndOrExpression(bool is_and, ExpressionList operands);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  bool is_and_;
  ExpressionList operands_;
};

class NotExpression final : public Expression {
 public:
  explicit NotExpression(std::unique_ptr<Expression> operand);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  std::unique_ptr<Expression> operand_;
};

// IS NULL, or IS NOT NULL when `negated`.
class IsNullExpression final : public Expression {
 public:
  IsNullExpression(bool negated, std::unique_ptr<Expression> operand);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  bool negated_;
  std::unique_ptr<Expression> operand_;
};

// children[0] IN (children[1..]).
class InListExpression final : public Expression {
 public:
  // REQUIRES: children.size() >= 2.
  explicit InListExpression(ExpressionList children);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  ExpressionList children_;
};

class BetweenExpression final : public Expression {
 public:
  BetweenExpression(std::unique_ptr<Expression> value, std::unique_ptr<Expression> low,
                    std::unique_ptr<Expression> high);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  std::unique_ptr<Expression> value_;
  std::unique_ptr<Expression> low_;
  std::unique_ptr<Expression> high_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_LOGIC_EXPRESSION_H_
