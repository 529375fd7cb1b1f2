#include "expr/case_cast_expression.h"

#include "common/assert.h"
#include "types/value_cast.h"

namespace partita::expr {

CaseExpression::CaseExpression(ValueType type, ExpressionList children, bool has_else)
    : Expression(type), children_(std::move(children)), has_else_(has_else) {
  PARTITA_ASSERT(children_.size() >= 2 && children_.size() % 2 == (has_else ? 1u : 0u),
                 "CASE needs WHEN/THEN pairs and an optional ELSE");
}

Status CaseExpression::Eval(const EvalContext& ctx, Value* out) const {
  const size_t pairs = children_.size() / 2;
  for (size_t i = 0; i < pairs; ++i) {
    Value condition;
    PARTITA_RETURN_IF_ERROR(children_[2 * i]->Eval(ctx, &condition));
    if (TruthOf(condition) != Truth::kTrue) continue;
    Value result;
    PARTITA_RETURN_IF_ERROR(children_[2 * i + 1]->Eval(ctx, &result));
    return CoerceToType(result, type(), ctx.arena, out);
  }
  if (!has_else_) {
    *out = Value::Null(type());
    return Status::OK();
  }
  Value result;
  PARTITA_RETURN_IF_ERROR(children_.back()->Eval(ctx, &result));
  return CoerceToType(result, type(), ctx.arena, out);
}

CastExpression::CastExpression(ValueType type, int32_t max_length, std::unique_ptr<Expression> operand)
    : Expression(type), max_length_(max_length), operand_(std::move(operand)) {}

Status CastExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value v;
  PARTITA_RETURN_IF_ERROR(operand_->Eval(ctx, &v));
  Result<Value> converted = ConvertValue(v, type(), max_length_, ConversionMode::kCast, ctx.arena, "CAST");
  if (!converted.ok()) return converted.status();
  *out = converted.value();
  return Status::OK();
}

}  // namespace partita::expr
