// Expression: a compiled scalar expression tree (from proto::Expression),
// evaluated per row by executors.
//
// Ownership: an Expression owns its children. Built once when the catalog is
// loaded and reused by every execution; Eval() is const and keeps no state, so
// one tree serves every row. Thread model: partition-confined.
//
// The node classes live beside this header, one file per concern:
// column_parameter_constant, arithmetic_expression, comparison_expression,
// logic_expression (AND/OR/NOT/IS NULL/IN/BETWEEN), like_expression,
// case_cast_expression, function_expression (+ string_/time_function_
// expression); expression.cc validates plans and builds the tree.
#ifndef PARTITA_EXPR_EXPRESSION_H_
#define PARTITA_EXPR_EXPRESSION_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "common/arena.h"
#include "partita/status.h"
#include "partita/value.h"
#include "plan.pb.h"

namespace partita {

struct ExecContext;

// What an expression reads while it is evaluated.
struct EvalContext {
  // The input row (see plan.proto: a node's input row).
  const Value* row = nullptr;
  // The statement's parameters, already converted to their declared types.
  const Value* params = nullptr;
  int32_t param_count = 0;
  // Where strings produced by the expression live; reset by the engine after
  // each statement.
  Arena* arena = nullptr;
  // The transaction's timestamp, µs since epoch (CURRENT_TIMESTAMP).
  int64_t txn_timestamp = 0;
  // Inside a subquery's plan: the arguments its SUBQUERY expression passed in
  // (OUTER_COLUMN reads them).
  const Value* outer = nullptr;
  // The statement execution evaluating this expression, when there is one:
  // what a SUBQUERY runs its plan in. Null for view maintenance and tests.
  const ExecContext* exec = nullptr;
};

class Expression {
 public:
  explicit Expression(ValueType type) : type_(type) {}
  virtual ~Expression() = default;
  Expression(const Expression&) = delete;
  Expression& operator=(const Expression&) = delete;

  // Evaluates over `ctx` into `*out`. Errors: overflow, division by zero, bad
  // casts, over-long results — each with a message naming the value.
  [[nodiscard]] virtual Status Eval(const EvalContext& ctx, Value* out) const = 0;

  // The result type decided by the compiler.
  ValueType type() const { return type_; }

 private:
  ValueType type_;
};

// What BuildExpression checks references against.
struct ExpressionScope {
  // Number of columns in the input row; COLUMN indexes must be below it.
  int32_t column_count = 0;
  // Number of statement parameters; PARAMETER indexes must be below it.
  int32_t param_count = 0;
  // Number of arguments of the enclosing SUBQUERY; OUTER_COLUMN indexes must
  // be below it (0 outside subqueries).
  int32_t outer_count = 0;
  // Builds SUBQUERY expressions (they need plans, which this layer cannot
  // build); null where subqueries are not allowed (BAD_PLAN).
  const class SubqueryFactory* subqueries = nullptr;
};

// Makes the node of a SUBQUERY expression from its proto and its already
// built children. Implemented by the plan builder.
class SubqueryFactory {
 public:
  virtual ~SubqueryFactory() = default;
  virtual Result<std::unique_ptr<Expression>> BuildSubquery(
      const proto::Expression& e, std::vector<std::unique_ptr<Expression>> children) const = 0;
};

// Builds the tree for `e`. Returns BAD_PLAN naming the problem for unknown
// kinds, wrong arity or references outside `scope`.
Result<std::unique_ptr<Expression>> BuildExpression(const proto::Expression& e, const ExpressionScope& scope);

// Evaluates a predicate: `*passes` is true iff the result is TRUE (NULL and
// FALSE reject, as in WHERE).
[[nodiscard]] Status EvalPredicate(const Expression& e, const EvalContext& ctx, bool* passes);

}  // namespace partita

#endif  // PARTITA_EXPR_EXPRESSION_H_
