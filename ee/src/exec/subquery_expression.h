// SubqueryExpression: a SUBQUERY expression (plan.proto) — a scalar
// subquery, EXISTS, or `x IN (SELECT ...)` — evaluated by running its plan.
//
// A correlated subquery (one with arguments) runs its plan on every
// evaluation, with the arguments computed from the current row as the plan's
// OUTER_COLUMN values. An uncorrelated one runs it once per statement
// execution (keyed on ExecContext::execution) and keeps the result.
//
// Ownership: owns its plan and children. The cache is mutable state inside a
// const Eval(), which is safe because the node is partition-confined and a
// plan never re-enters its own subquery. Thread model: partition-confined.
#ifndef PARTITA_EXEC_SUBQUERY_EXPRESSION_H_
#define PARTITA_EXEC_SUBQUERY_EXPRESSION_H_

#include <memory>
#include <vector>

#include "exec/executor.h"
#include "expr/expression.h"

namespace partita {

class SubqueryExpression final : public Expression {
 public:
  enum class Kind { kScalar, kExists, kIn };

  // For kIn, children[0] is the tested value and the rest are arguments;
  // otherwise every child is an argument. REQUIRES: `plan` produces at least
  // one column for kScalar and kIn.
  SubqueryExpression(ValueType type, Kind kind, std::unique_ptr<Executor> plan,
                     std::vector<std::unique_ptr<Expression>> children);

  Status Eval(const EvalContext& ctx, Value* out) const override;

 private:
  // Runs the plan with `args` and leaves its result in the cache fields.
  Status Run(const ExecContext& exec, const Value* args) const;
  Status Answer(const EvalContext& ctx, Value* out) const;

  Kind kind_;
  std::unique_ptr<Executor> plan_;
  std::vector<std::unique_ptr<Expression>> children_;
  int first_argument_;

  // The last run's result: the scalar (kScalar), whether a row came
  // (kExists), or the first-column values and whether one was NULL (kIn).
  mutable Value scalar_;
  mutable bool any_row_ = false;
  mutable std::vector<Value> values_;
  mutable bool saw_null_ = false;
  // The execution whose result the fields hold (uncorrelated only); 0: none.
  mutable uint64_t cached_execution_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_SUBQUERY_EXPRESSION_H_
