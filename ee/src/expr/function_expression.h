// Scalar functions (proto::Function). BuildFunction checks arity and result
// type and dispatches to the node classes:
//   FunctionExpression          COALESCE, NULLIF, ABS (this file)
//   StringFunctionExpression    lengths, SUBSTRING, UPPER/LOWER, trims, CONCAT
//   TimeFunctionExpression      EXTRACT_*, TO_TIMESTAMP_*, SINCE_EPOCH_*,
//                               TRUNCATE_*, CURRENT_TIMESTAMP
//   ArithmeticExpression        MOD (as the % operator)
//
// FunctionExpression semantics:
//   COALESCE(a, ...)  the first non-NULL argument, else NULL; widened to the
//                     node's type.
//   NULLIF(a, b)      NULL if a = b (SQL equality), else a; NULL b gives a.
//   ABS(x)            |x| in the node's type; out of range (ABS of the most
//                     negative integer) is NUMERIC_OUT_OF_RANGE.
//
// Ownership: each node owns its arguments. Thread model: immutable;
// partition-confined.
#ifndef PARTITA_EXPR_FUNCTION_EXPRESSION_H_
#define PARTITA_EXPR_FUNCTION_EXPRESSION_H_

#include <memory>

#include "expr/expression.h"
#include "expr/expression_util.h"

namespace partita::expr {

// Builds FUNCTION `e` of result `type` over its built `args`. Returns
// BAD_PLAN for an unknown function, a wrong argument count, or a result type
// the function cannot produce.
Result<std::unique_ptr<Expression>> BuildFunction(const proto::Expression& e, ValueType type, ExpressionList args);

class FunctionExpression final : public Expression {
 public:
  // REQUIRES: `fn` is COALESCE, NULLIF or ABS with a valid argument count.
  FunctionExpression(ValueType type, proto::Function fn, ExpressionList args);
  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  Status EvalNullIf(const EvalContext& ctx, Value* out) const;
  Status EvalAbs(const EvalContext& ctx, Value* out) const;

  proto::Function fn_;
  ExpressionList args_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_FUNCTION_EXPRESSION_H_
