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
#include <unordered_set>

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

// children[0] IN (children[1..]). When every item is a constant whose type
// compares with children[0]'s without conversion errors (numbers with
// numbers, text with text, ...), the items are put in a hash set once, at
// build time, and each evaluation is one probe; otherwise the list is
// scanned (the same answers, and the same TYPE_MISMATCH errors).
class InListExpression final : public Expression {
 public:
  // REQUIRES: children.size() >= 2. `constant_items`: children[1..] are all
  // CONSTANT expressions.
  InListExpression(ExpressionList children, bool constant_items);
  Status Eval(const EvalContext& ctx, Value* out) const override;

  // Whether evaluations probe a hash set (for tests).
  bool hashed() const { return hashed_; }

 private:
  struct ValueHash {
    size_t operator()(const Value& v) const { return HashValue(v); }
  };
  struct ValueEq {
    bool operator()(const Value& a, const Value& b) const { return CompareValues(a, b) == 0; }
  };

  // Fills items_ iff the list can be probed by hash; returns whether it can.
  bool BuildSet();
  Status EvalScan(const EvalContext& ctx, const Value& x, Value* out) const;

  ExpressionList children_;
  bool hashed_ = false;
  bool list_has_null_ = false;
  std::unordered_set<Value, ValueHash, ValueEq> items_;
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
