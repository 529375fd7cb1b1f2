#include "exec/set_operation_executor.h"

#include <utility>

namespace partita {

SetOperationExecutor::SetOperationExecutor(proto::SetOperationKind kind, int width,
                                           std::vector<std::unique_ptr<Executor>> children)
    : Executor(Kind::kOther, width), kind_(kind) {
  for (auto& c : children) AddChild(std::move(c));
}

Status SetOperationExecutor::OpenImpl() {
  current_ = 0;
  seen_.clear();
  right_.clear();
  if (kind_ == proto::SET_OPERATION_KIND_INTERSECT || kind_ == proto::SET_OPERATION_KIND_EXCEPT) {
    PARTITA_RETURN_IF_ERROR(child(1)->Open(ctx_));
    for (;;) {
      const Value* r;
      PARTITA_RETURN_IF_ERROR(child(1)->Next(&r));
      if (r == nullptr) break;
      if (right_.contains(RowRef{r, width()})) continue;
      if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(r, width(), "set operation"));
      right_.insert(RowRef{CopyRow(r, width(), ctx_->arena), width()});
    }
  }
  return child(0)->Open(ctx_);
}

Status SetOperationExecutor::NextImpl(const Value** row) {
  const bool binary = kind_ == proto::SET_OPERATION_KIND_INTERSECT || kind_ == proto::SET_OPERATION_KIND_EXCEPT;
  const int last = binary ? 0 : child_count() - 1;
  for (;;) {
    PARTITA_RETURN_IF_ERROR(child(current_)->Next(row));
    if (*row == nullptr) {
      if (current_ == last) return Status::OK();
      ++current_;
      PARTITA_RETURN_IF_ERROR(child(current_)->Open(ctx_));
      continue;
    }
    if (kind_ == proto::SET_OPERATION_KIND_UNION_ALL) return Status::OK();
    const RowRef ref{*row, width()};
    if (seen_.contains(ref)) continue;
    if (kind_ == proto::SET_OPERATION_KIND_INTERSECT && !right_.contains(ref)) continue;
    if (kind_ == proto::SET_OPERATION_KIND_EXCEPT && right_.contains(ref)) continue;
    if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(*row, width(), "set operation"));
    const Value* copy = CopyRow(*row, width(), ctx_->arena);
    seen_.insert(RowRef{copy, width()});
    *row = copy;
    return Status::OK();
  }
}

}  // namespace partita
