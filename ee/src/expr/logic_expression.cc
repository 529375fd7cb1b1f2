#include "expr/logic_expression.h"

#include "common/assert.h"

namespace partita::expr {

AndOrExpression::AndOrExpression(bool is_and, ExpressionList operands)
    : Expression(ValueType::kBoolean), is_and_(is_and), operands_(std::move(operands)) {
  PARTITA_ASSERT(operands_.size() >= 2, "AND/OR need two operands");
}

Status AndOrExpression::Eval(const EvalContext& ctx, Value* out) const {
  // AND is decided by FALSE, OR by TRUE.
  const Truth deciding = is_and_ ? Truth::kFalse : Truth::kTrue;
  bool unknown = false;
  for (const std::unique_ptr<Expression>& operand : operands_) {
    Value v;
    PARTITA_RETURN_IF_ERROR(operand->Eval(ctx, &v));
    const Truth t = TruthOf(v);
    if (t == deciding) {
      *out = TruthValue(deciding);
      return Status::OK();
    }
    unknown |= t == Truth::kUnknown;
  }
  *out = unknown ? Value::Null(ValueType::kBoolean) : Value::Boolean(is_and_);
  return Status::OK();
}

NotExpression::NotExpression(std::unique_ptr<Expression> operand)
    : Expression(ValueType::kBoolean), operand_(std::move(operand)) {}

Status NotExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value v;
  PARTITA_RETURN_IF_ERROR(operand_->Eval(ctx, &v));
  *out = v.is_null() ? Value::Null(ValueType::kBoolean) : Value::Boolean(!v.bool_value());
  return Status::OK();
}

IsNullExpression::IsNullExpression(bool negated, std::unique_ptr<Expression> operand)
    : Expression(ValueType::kBoolean), negated_(negated), operand_(std::move(operand)) {}

Status IsNullExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value v;
  PARTITA_RETURN_IF_ERROR(operand_->Eval(ctx, &v));
  *out = Value::Boolean(v.is_null() != negated_);
  return Status::OK();
}

namespace {

// Types whose values hash and compare consistently with each other and never
// fail to compare: every number type together, then each other type alone.
// 0 = none (NULL-typed, invalid).
int HashFamily(ValueType t) {
  switch (t) {
    case ValueType::kTinyInt:
    case ValueType::kSmallInt:
    case ValueType::kInteger:
    case ValueType::kBigInt:
    case ValueType::kFloat:
    case ValueType::kDecimal: return 1;
    case ValueType::kVarchar: return 2;
    case ValueType::kVarbinary: return 3;
    case ValueType::kTimestamp: return 4;
    case ValueType::kBoolean: return 5;
    default: return 0;
  }
}

}  // namespace

InListExpression::InListExpression(ExpressionList children, bool constant_items)
    : Expression(ValueType::kBoolean), children_(std::move(children)) {
  PARTITA_ASSERT(children_.size() >= 2, "IN needs a value and a list");
  hashed_ = constant_items && BuildSet();
}

bool InListExpression::BuildSet() {
  const int family = HashFamily(children_[0]->type());
  if (family == 0) return false;
  const EvalContext none;
  for (size_t i = 1; i < children_.size(); ++i) {
    Value item;
    if (!children_[i]->Eval(none, &item).ok()) return false;
    if (item.is_null()) {
      list_has_null_ = true;
      continue;
    }
    if (HashFamily(item.type()) != family) return false;
    // The constant owns the bytes a string item points to; it lives as long as this node.
    items_.insert(item);
  }
  return true;
}

Status InListExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value x;
  PARTITA_RETURN_IF_ERROR(children_[0]->Eval(ctx, &x));
  if (x.is_null()) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  if (!hashed_) return EvalScan(ctx, x, out);
  if (items_.contains(x)) {
    *out = Value::Boolean(true);
  } else {
    *out = list_has_null_ ? Value::Null(ValueType::kBoolean) : Value::Boolean(false);
  }
  return Status::OK();
}

Status InListExpression::EvalScan(const EvalContext& ctx, const Value& x, Value* out) const {
  bool saw_null = false;
  for (size_t i = 1; i < children_.size(); ++i) {
    Value item;
    PARTITA_RETURN_IF_ERROR(children_[i]->Eval(ctx, &item));
    if (item.is_null()) {
      saw_null = true;
      continue;
    }
    int c;
    PARTITA_RETURN_IF_ERROR(CompareNonNull(x, item, &c));
    if (c == 0) {
      *out = Value::Boolean(true);
      return Status::OK();
    }
  }
  *out = saw_null ? Value::Null(ValueType::kBoolean) : Value::Boolean(false);
  return Status::OK();
}

BetweenExpression::BetweenExpression(std::unique_ptr<Expression> value, std::unique_ptr<Expression> low,
                                     std::unique_ptr<Expression> high)
    : Expression(ValueType::kBoolean), value_(std::move(value)), low_(std::move(low)), high_(std::move(high)) {}

Status BetweenExpression::Eval(const EvalContext& ctx, Value* out) const {
  Value x, lo, hi;
  PARTITA_RETURN_IF_ERROR(value_->Eval(ctx, &x));
  if (x.is_null()) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(low_->Eval(ctx, &lo));
  Truth above = Truth::kUnknown;
  if (!lo.is_null()) {
    int c;
    PARTITA_RETURN_IF_ERROR(CompareNonNull(x, lo, &c));
    above = c >= 0 ? Truth::kTrue : Truth::kFalse;
  }
  if (above == Truth::kFalse) {
    *out = Value::Boolean(false);
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(high_->Eval(ctx, &hi));
  Truth below = Truth::kUnknown;
  if (!hi.is_null()) {
    int c;
    PARTITA_RETURN_IF_ERROR(CompareNonNull(x, hi, &c));
    below = c <= 0 ? Truth::kTrue : Truth::kFalse;
  }
  if (below == Truth::kFalse) {
    *out = Value::Boolean(false);
    return Status::OK();
  }
  *out = TruthValue(above == Truth::kTrue && below == Truth::kTrue ? Truth::kTrue : Truth::kUnknown);
  return Status::OK();
}

}  // namespace partita::expr
