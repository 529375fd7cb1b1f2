#include "exec/index_scan_executor.h"

namespace partita {

IndexScanExecutor::IndexScanExecutor(Table* table, TableIndex* index,
                                     std::vector<std::unique_ptr<Expression>> lookup_key, Bound lower, Bound upper,
                                     ScanOrder order, std::unique_ptr<Expression> predicate)
    : TupleSource(kKind, table->visible_column_count()),
      table_(table),
      index_(index),
      lookup_key_(std::move(lookup_key)),
      lower_(std::move(lower)),
      upper_(std::move(upper)),
      order_(order),
      predicate_(std::move(predicate)),
      cursor_(index->NewCursor()),
      key_values_(lookup_key_.size()),
      lower_values_(lower_.key.size()),
      upper_values_(upper_.key.size()),
      row_(table->schema().column_count()) {}

Status IndexScanExecutor::EvalKey(const std::vector<std::unique_ptr<Expression>>& exprs, const Value* outer_row,
                                  Value* out, bool* has_null) {
  const EvalContext eval = ctx_->Eval(outer_row);
  for (size_t i = 0; i < exprs.size(); ++i) {
    PARTITA_RETURN_IF_ERROR(exprs[i]->Eval(eval, &out[i]));
    *has_null |= out[i].is_null();
  }
  return Status::OK();
}

Status IndexScanExecutor::Seek(const Value* outer_row) {
  bool has_null = false;
  current_ = nullptr;
  null_excluded_column_ = -1;
  if (!lookup_key_.empty()) {
    PARTITA_RETURN_IF_ERROR(EvalKey(lookup_key_, outer_row, key_values_.data(), &has_null));
    empty_ = has_null;
    if (!empty_) cursor_->SeekEqual(key_values_.data(), static_cast<int>(key_values_.size()));
    return Status::OK();
  }
  PARTITA_RETURN_IF_ERROR(EvalKey(lower_.key, outer_row, lower_values_.data(), &has_null));
  PARTITA_RETURN_IF_ERROR(EvalKey(upper_.key, outer_row, upper_values_.data(), &has_null));
  empty_ = has_null;
  if (empty_) return Status::OK();
  const KeyBound lower{lower_values_.data(), static_cast<int>(lower_values_.size()), lower_.inclusive};
  const KeyBound upper{upper_values_.data(), static_cast<int>(upper_values_.size()), upper_.inclusive};
  cursor_->SeekRange(lower, upper, order_);
  // NULLs sort first: a range bounded above but not (as far) below would
  // reach them, yet NULL < x is never true.
  null_excluded_column_ = upper.size > lower.size ? index_->key().column(lower.size) : -1;
  return Status::OK();
}

Status IndexScanExecutor::NextTuple(const Value** row) {
  *row = nullptr;
  if (empty_) return Status::OK();
  while ((current_ = cursor_->Next()) != nullptr) {
    if (null_excluded_column_ >= 0 && table_->schema().IsNull(current_, null_excluded_column_)) continue;
    table_->schema().GetAll(current_, row_.data());
    bool passes = true;
    if (predicate_ != nullptr) PARTITA_RETURN_IF_ERROR(EvalPredicate(*predicate_, ctx_->Eval(row_.data()), &passes));
    if (passes) {
      *row = row_.data();
      return Status::OK();
    }
  }
  return Status::OK();
}

}  // namespace partita
