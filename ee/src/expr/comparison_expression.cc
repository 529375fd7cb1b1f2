#include "expr/comparison_expression.h"

#include "expr/expression_util.h"

namespace partita::expr {

ComparisonExpression::ComparisonExpression(CompareOp op, std::unique_ptr<Expression> left,
                                           std::unique_ptr<Expression> right)
    : Expression(ValueType::kBoolean), op_(op), left_(std::move(left)), right_(std::move(right)) {}

Status ComparisonExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value a, b;
  PARTITA_RETURN_IF_ERROR(left_->Eval(ctx, &a));
  if (!a.is_null()) PARTITA_RETURN_IF_ERROR(right_->Eval(ctx, &b));
  if (a.is_null() || b.is_null()) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  int c;
  PARTITA_RETURN_IF_ERROR(CompareNonNull(a, b, &c));
  *out = Value::Boolean(Satisfies(op_, c));
  return Status::OK();
}

}  // namespace partita::expr
