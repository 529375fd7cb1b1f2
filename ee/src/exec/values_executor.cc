#include "exec/values_executor.h"

#include <algorithm>

namespace partita {

// row_ has at least one slot: a row of zero columns (SELECT without FROM) must
// still be a non-null pointer, since nullptr means the end.
ValuesExecutor::ValuesExecutor(int width, std::vector<std::vector<std::unique_ptr<Expression>>> rows)
    : Executor(Kind::kOther, width), rows_(std::move(rows)), row_(std::max(width, 1)) {}

Status ValuesExecutor::NextImpl(const Value** row) {
  if (next_ == rows_.size()) {
    *row = nullptr;
    return Status::OK();
  }
  const EvalContext eval = ctx_->Eval(nullptr);
  const auto& exprs = rows_[next_++];
  for (size_t i = 0; i < exprs.size(); ++i) PARTITA_RETURN_IF_ERROR(exprs[i]->Eval(eval, &row_[i]));
  *row = row_.data();
  return Status::OK();
}

}  // namespace partita
