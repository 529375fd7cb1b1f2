#include "exec/insert_executor.h"

#include "exec/row_utils.h"

namespace partita {

InsertExecutor::InsertExecutor(std::unique_ptr<Executor> child, Table* table, bool upsert, bool collect_first)
    : Executor(Kind::kOther, 1),
      table_(table),
      upsert_(upsert),
      collect_first_(collect_first),
      validated_(table->schema().column_count()) {
  AddChild(std::move(child));
}

Status InsertExecutor::Write(const Value* row) {
  PARTITA_RETURN_IF_ERROR(table_->ValidateRow(row, validated_.data(), ctx_->arena));
  return upsert_ ? table_->Upsert(validated_.data(), ctx_->undo) : table_->Insert(validated_.data(), ctx_->undo);
}

Status InsertExecutor::OpenImpl() {
  done_ = false;
  pending_.clear();
  PARTITA_RETURN_IF_ERROR(child(0)->Open(ctx_));
  int64_t written = 0;
  const int width = child(0)->width();
  for (;;) {
    const Value* in;
    PARTITA_RETURN_IF_ERROR(child(0)->Next(&in));
    if (in == nullptr) break;
    if (collect_first_) {
      pending_.push_back(CopyRow(in, width, ctx_->arena));
      continue;
    }
    PARTITA_RETURN_IF_ERROR(Write(in));
    ++written;
  }
  for (const Value* row : pending_) {
    PARTITA_RETURN_IF_ERROR(Write(row));
    ++written;
  }
  count_ = Value::BigInt(written);
  return Status::OK();
}

Status InsertExecutor::NextImpl(const Value** row) {
  *row = done_ ? nullptr : &count_;
  done_ = true;
  return Status::OK();
}

}  // namespace partita
