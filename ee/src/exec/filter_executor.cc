#include "exec/filter_executor.h"

namespace partita {

FilterExecutor::FilterExecutor(std::unique_ptr<Executor> child, std::unique_ptr<Expression> predicate)
    : Executor(Kind::kOther, child->width()), predicate_(std::move(predicate)) {
  AddChild(std::move(child));
}

Status FilterExecutor::NextImpl(const Value** row) {
  for (;;) {
    PARTITA_RETURN_IF_ERROR(child(0)->Next(row));
    if (*row == nullptr) return Status::OK();
    bool passes = false;
    PARTITA_RETURN_IF_ERROR(EvalPredicate(*predicate_, ctx_->Eval(*row), &passes));
    if (passes) return Status::OK();
  }
}

}  // namespace partita
