#include "exec/projection_executor.h"

namespace partita {

ProjectionExecutor::ProjectionExecutor(std::unique_ptr<Executor> child,
                                       std::vector<std::unique_ptr<Expression>> columns)
    : Executor(Kind::kOther, static_cast<int>(columns.size())), columns_(std::move(columns)), row_(columns_.size()) {
  AddChild(std::move(child));
}

Status ProjectionExecutor::NextImpl(const Value** row) {
  const Value* in;
  PARTITA_RETURN_IF_ERROR(child(0)->Next(&in));
  if (in == nullptr) {
    *row = nullptr;
    return Status::OK();
  }
  const EvalContext eval = ctx_->Eval(in);
  for (size_t i = 0; i < columns_.size(); ++i) PARTITA_RETURN_IF_ERROR(columns_[i]->Eval(eval, &row_[i]));
  *row = row_.data();
  return Status::OK();
}

}  // namespace partita
