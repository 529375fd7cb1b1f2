// JoinRow: the step every join executor shares — put an inner row beside the
// outer row and test the join's residual predicate over the pair.
// Thread model: plain functions over the caller's buffers.
#ifndef PARTITA_EXEC_JOIN_ROW_H_
#define PARTITA_EXEC_JOIN_ROW_H_

#include <algorithm>
#include <vector>

#include "exec/exec_context.h"

namespace partita {

// Copies `inner[0 .. inner_width)` into `*row` after its first `outer_width`
// values and sets `*passes` to whether `predicate` (null = none) holds over
// the combined row. Returns the predicate's evaluation error, if any.
inline Status CombineJoinRow(const Expression* predicate, const ExecContext& ctx, const Value* inner,
                             int inner_width, int outer_width, std::vector<Value>* row, bool* passes) {
  std::copy(inner, inner + inner_width, row->begin() + outer_width);
  *passes = true;
  if (predicate == nullptr) return Status::OK();
  return EvalPredicate(*predicate, ctx.Eval(row->data()), passes);
}

}  // namespace partita

#endif  // PARTITA_EXEC_JOIN_ROW_H_
