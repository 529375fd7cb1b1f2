#include "exec/update_executor.h"

namespace partita {

UpdateExecutor::UpdateExecutor(std::unique_ptr<Executor> scan, Table* table, std::vector<Assignment> assignments)
    : Executor(Kind::kOther, 1),
      table_(table),
      assignments_(std::move(assignments)),
      current_(table->schema().column_count()),
      next_row_(table->schema().column_count()),
      validated_(table->schema().column_count()) {
  AddChild(std::move(scan));
}

Status UpdateExecutor::OpenImpl() {
  done_ = false;
  targets_.clear();
  auto* scan = static_cast<TupleSource*>(child(0));
  PARTITA_RETURN_IF_ERROR(scan->Open(ctx_));
  for (;;) {
    const Value* in;
    PARTITA_RETURN_IF_ERROR(scan->Next(&in));
    if (in == nullptr) break;
    targets_.push_back(scan->current_tuple());
  }
  const TupleSchema& schema = table_->schema();
  for (const char* tuple : targets_) {
    schema.GetAll(tuple, current_.data());
    next_row_ = current_;
    const EvalContext eval = ctx_->Eval(current_.data());
    for (const Assignment& a : assignments_) PARTITA_RETURN_IF_ERROR(a.value->Eval(eval, &next_row_[a.column]));
    PARTITA_RETURN_IF_ERROR(table_->ValidateRow(next_row_.data(), validated_.data(), ctx_->arena));
    PARTITA_RETURN_IF_ERROR(table_->Update(tuple, validated_.data(), ctx_->undo));
  }
  count_ = Value::BigInt(static_cast<int64_t>(targets_.size()));
  return Status::OK();
}

Status UpdateExecutor::NextImpl(const Value** row) {
  *row = done_ ? nullptr : &count_;
  done_ = true;
  return Status::OK();
}

}  // namespace partita
