#include "exec/seq_scan_executor.h"

namespace partita {

SeqScanExecutor::SeqScanExecutor(Table* table, std::unique_ptr<Expression> predicate)
    : TupleSource(kKind, table->visible_column_count()),
      table_(table),
      predicate_(std::move(predicate)),
      it_(table),
      row_(table->schema().column_count()) {}

Status SeqScanExecutor::OpenImpl() {
  it_ = table_->Scan();
  current_ = nullptr;
  return Status::OK();
}

Status SeqScanExecutor::NextImpl(const Value** row) {
  while ((current_ = it_.Next()) != nullptr) {
    table_->schema().GetAll(current_, row_.data());
    bool passes = true;
    if (predicate_ != nullptr) PARTITA_RETURN_IF_ERROR(EvalPredicate(*predicate_, ctx_->Eval(row_.data()), &passes));
    if (passes) {
      *row = row_.data();
      return Status::OK();
    }
  }
  *row = nullptr;
  return Status::OK();
}

}  // namespace partita
