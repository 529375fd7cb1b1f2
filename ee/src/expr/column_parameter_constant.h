// The leaves of an expression tree: a column of the input row, a statement
// parameter, a subquery argument (OUTER_COLUMN), and a constant from the plan.
//
// Ownership: a ConstantExpression owns the bytes of its VARCHAR/VARBINARY
// value; the Value it produces points into the node and lives as long as it.
// Thread model: immutable after construction; partition-confined.
#ifndef PARTITA_EXPR_COLUMN_PARAMETER_CONSTANT_H_
#define PARTITA_EXPR_COLUMN_PARAMETER_CONSTANT_H_

#include <cstdint>
#include <memory>
#include <string>

#include "errors.pb.h"
#include "expr/expression.h"

namespace partita::expr {

// Column `index` of ctx.row. REQUIRES (checked by the builder): index is
// within the input row.
class ColumnExpression final : public Expression {
 public:
  ColumnExpression(ValueType type, int32_t index) : Expression(type), index_(index) {}
  Status Eval(const EvalContext& ctx, Value* out) const override {
    *out = ctx.row[index_];
    return Status::OK();
  }

 private:
  int32_t index_;
};

// Parameter `index` of the statement. An execution with fewer parameters
// than the plan was built for is BAD_PARAMETER.
class ParameterExpression final : public Expression {
 public:
  ParameterExpression(ValueType type, int32_t index) : Expression(type), index_(index) {}
  Status Eval(const EvalContext& ctx, Value* out) const override {
    if (index_ >= ctx.param_count) [[unlikely]] return MissingParameter(ctx);
    *out = ctx.params[index_];
    return Status::OK();
  }

 private:
  Status MissingParameter(const EvalContext& ctx) const;

  int32_t index_;
};

// Argument `index` of the enclosing SUBQUERY (ctx.outer). REQUIRES (checked
// by the builder): index is below the subquery's argument count.
class OuterColumnExpression final : public Expression {
 public:
  OuterColumnExpression(ValueType type, int32_t index) : Expression(type), index_(index) {}
  Status Eval(const EvalContext& ctx, Value* out) const override {
    if (ctx.outer == nullptr) [[unlikely]] {
      return Status(proto::ERROR_CODE_INTERNAL, "OUTER_COLUMN evaluated outside a subquery");
    }
    *out = ctx.outer[index_];
    return Status::OK();
  }

 private:
  int32_t index_;
};

class ConstantExpression final : public Expression {
 public:
  // Builds the constant of `e` (kind CONSTANT) with result type `type`: the
  // proto value converted to `type` (kExact) when the two differ. Returns
  // BAD_PLAN when the constant is missing, malformed or does not fit.
  static Result<std::unique_ptr<Expression>> Create(const proto::Expression& e, ValueType type);

  Status Eval(const EvalContext& ctx, Value* out) const override {
    *out = value_;
    return Status::OK();
  }

  // A constant `value` of result `type`; its bytes, if any, are copied into
  // the node. Prefer Create() for plan constants.
  ConstantExpression(ValueType type, const Value& value);

  const Value& value() const { return value_; }

 private:

  std::string bytes_;
  Value value_;
};

}  // namespace partita::expr

#endif  // PARTITA_EXPR_COLUMN_PARAMETER_CONSTANT_H_
