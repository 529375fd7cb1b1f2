#include "exec/subquery_expression.h"

#include <utility>

#include "errors.pb.h"
#include "expr/expression_util.h"

namespace partita {
namespace {

// A copy of `v` whose bytes live in `arena` (rows of the plan are only valid
// until its next row).
Value Keep(const Value& v, Arena* arena) {
  if (v.is_null() || !IsVariableLengthType(v.type())) return v;
  return Value::Bytes(v.type(), arena->Copy(v.string_value()));
}

}  // namespace

SubqueryExpression::SubqueryExpression(ValueType type, Kind kind, std::unique_ptr<Executor> plan,
                                       std::vector<std::unique_ptr<Expression>> children)
    : Expression(type),
      kind_(kind),
      plan_(std::move(plan)),
      children_(std::move(children)),
      first_argument_(kind == Kind::kIn ? 1 : 0) {}

Status SubqueryExpression::Eval(const EvalContext& ctx, Value* out) const {
  if (ctx.exec == nullptr) [[unlikely]] {
    return Status(proto::ERROR_CODE_INTERNAL, "subquery evaluated outside a statement execution");
  }
  const int arg_count = static_cast<int>(children_.size()) - first_argument_;
  if (arg_count == 0) {
    if (ctx.exec->execution == 0 || cached_execution_ != ctx.exec->execution) {
      PARTITA_RETURN_IF_ERROR(Run(*ctx.exec, nullptr));
      cached_execution_ = ctx.exec->execution;
    }
    return Answer(ctx, out);
  }
  Value* args = reinterpret_cast<Value*>(ctx.arena->Allocate(sizeof(Value) * arg_count));
  for (int i = 0; i < arg_count; ++i) {
    new (&args[i]) Value();
    PARTITA_RETURN_IF_ERROR(children_[first_argument_ + i]->Eval(ctx, &args[i]));
  }
  PARTITA_RETURN_IF_ERROR(Run(*ctx.exec, args));
  return Answer(ctx, out);
}

Status SubqueryExpression::Run(const ExecContext& exec, const Value* args) const {
  ExecContext sub = exec;
  sub.outer = args;
  PARTITA_RETURN_IF_ERROR(plan_->Open(&sub));
  scalar_ = Value::Null(type());
  any_row_ = false;
  values_.clear();
  saw_null_ = false;
  while (true) {
    const Value* row;
    PARTITA_RETURN_IF_ERROR(plan_->Next(&row));
    if (row == nullptr) break;
    if (kind_ == Kind::kExists) {
      any_row_ = true;
      break;
    }
    if (kind_ == Kind::kScalar) {
      if (any_row_) return Status(proto::ERROR_CODE_SQL_ERROR, "a scalar subquery returned more than one row");
      any_row_ = true;
      scalar_ = Keep(row[0], exec.arena);
      continue;
    }
    any_row_ = true;
    if (row[0].is_null()) {
      saw_null_ = true;
    } else {
      values_.push_back(Keep(row[0], exec.arena));
    }
  }
  return Status::OK();
}

Status SubqueryExpression::Answer(const EvalContext& ctx, Value* out) const {
  switch (kind_) {
    case Kind::kScalar: *out = scalar_; return Status::OK();
    case Kind::kExists: *out = Value::Boolean(any_row_); return Status::OK();
    case Kind::kIn: break;
  }
  Value x;
  PARTITA_RETURN_IF_ERROR(children_[0]->Eval(ctx, &x));
  if (!any_row_) {
    *out = Value::Boolean(false);
    return Status::OK();
  }
  if (x.is_null()) {
    *out = Value::Null(ValueType::kBoolean);
    return Status::OK();
  }
  for (const Value& v : values_) {
    int c;
    PARTITA_RETURN_IF_ERROR(expr::CompareNonNull(x, v, &c));
    if (c == 0) {
      *out = Value::Boolean(true);
      return Status::OK();
    }
  }
  *out = saw_null_ ? Value::Null(ValueType::kBoolean) : Value::Boolean(false);
  return Status::OK();
}

}  // namespace partita
