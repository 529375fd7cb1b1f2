// CASE and CAST.
//
// CaseExpression: CASE WHEN c0 THEN r0 ... [ELSE e] END. The first condition
// that is TRUE (not NULL, not FALSE) selects its result; without a match the
// ELSE result, or NULL without ELSE. Only the selected result is evaluated.
// A result of another type than the node's is widened to it (kExact rules).
//
// CastExpression: CAST(x AS type[(max_length)]) under ConversionMode::kCast
// (types/value_cast.h): FLOAT/DECIMAL to integers truncate, text parses
// (bad text is TYPE_MISMATCH), out-of-range is NUMERIC_OUT_OF_RANGE and a
// string longer than max_length is VALUE_TOO_LONG. Produced text lives in
// ctx.arena.
//
// Ownership: each node owns its operands. Thread model: immutable;
// partition-confined.
#ifndef PARTITA_EXPR_CASE_CAST_EXPRESSION_H_
#define PARTITA_EXPR_CASE_CAST_EXPRESSION_H_

#include <cstdint>
#include <memory>

#include "expr/expression.h"
#include "expr/expression_util.h"

namespace partita::expr {

class CaseExpression final : public Expression {
 public:
  // REQUIRES: children are (c0, r0, c1, r1, ...) plus the ELSE result iff
  // `has_else`, with at least one WHEN.
  CaseExpression(ValueType type, ExpressionList children, bool has_else);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  ExpressionList children_;
  bool has_else_;
};

class CastExpression final : public Expression {
 public:
  // `max_length` bounds VARCHAR/VARBINARY results; 0 = unbounded.
  CastExpression(ValueType type, int32_t max_length, std::unique_ptr<Expression> operand);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  int32_t max_length_;
  std::unique_ptr<Expression> operand_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_CASE_CAST_EXPRESSION_H_
