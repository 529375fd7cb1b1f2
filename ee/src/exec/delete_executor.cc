#include "exec/delete_executor.h"

namespace partita {

DeleteExecutor::DeleteExecutor(std::unique_ptr<Executor> scan, Table* table)
    : Executor(Kind::kOther, 1), table_(table) {
  AddChild(std::move(scan));
}

Status DeleteExecutor::OpenImpl() {
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
  for (const char* tuple : targets_) PARTITA_RETURN_IF_ERROR(table_->Delete(tuple, ctx_->undo));
  count_ = Value::BigInt(static_cast<int64_t>(targets_.size()));
  return Status::OK();
}

Status DeleteExecutor::NextImpl(const Value** row) {
  *row = done_ ? nullptr : &count_;
  done_ = true;
  return Status::OK();
}

}  // namespace partita
