#include "exec/distinct_executor.h"

namespace partita {

DistinctExecutor::DistinctExecutor(std::unique_ptr<Executor> child) : Executor(Kind::kOther, child->width()) {
  AddChild(std::move(child));
}

Status DistinctExecutor::OpenImpl() {
  seen_.clear();
  return child(0)->Open(ctx_);
}

Status DistinctExecutor::NextImpl(const Value** row) {
  for (;;) {
    PARTITA_RETURN_IF_ERROR(child(0)->Next(row));
    if (*row == nullptr) return Status::OK();
    if (seen_.contains(RowRef{*row, width()})) continue;
    if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(*row, width(), "DISTINCT"));
    const Value* copy = CopyRow(*row, width(), ctx_->arena);
    seen_.insert(RowRef{copy, width()});
    *row = copy;
    return Status::OK();
  }
}

}  // namespace partita
