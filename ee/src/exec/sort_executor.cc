#include "exec/sort_executor.h"

#include <algorithm>

#include "exec/row_utils.h"

namespace partita {

SortExecutor::SortExecutor(std::unique_ptr<Executor> child, std::vector<Key> keys)
    : Executor(Kind::kOther, child->width()), keys_(std::move(keys)) {
  AddChild(std::move(child));
}

Status SortExecutor::OpenImpl() {
  rows_.clear();
  next_ = 0;
  PARTITA_RETURN_IF_ERROR(child(0)->Open(ctx_));
  const int w = width();
  const int k = static_cast<int>(keys_.size());
  std::vector<Value> combined(w + k);
  for (;;) {
    const Value* in;
    PARTITA_RETURN_IF_ERROR(child(0)->Next(&in));
    if (in == nullptr) break;
    std::copy(in, in + w, combined.begin());
    const EvalContext eval = ctx_->Eval(in);
    for (int i = 0; i < k; ++i) PARTITA_RETURN_IF_ERROR(keys_[i].expression->Eval(eval, &combined[w + i]));
    if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(combined.data(), w + k, "sort"));
    rows_.push_back(CopyRow(combined.data(), w + k, ctx_->arena));
  }
  std::stable_sort(rows_.begin(), rows_.end(), [&](const Value* a, const Value* b) {
    for (int i = 0; i < k; ++i) {
      const Value& x = a[w + i];
      const Value& y = b[w + i];
      if (x.is_null() || y.is_null()) {
        if (x.is_null() && y.is_null()) continue;
        // `nulls_last` places NULLs after every value, whatever the direction.
        return x.is_null() != keys_[i].nulls_last;
      }
      const int c = CompareValues(x, y);
      if (c != 0) return keys_[i].descending ? c > 0 : c < 0;
    }
    return false;
  });
  return Status::OK();
}

Status SortExecutor::NextImpl(const Value** row) {
  *row = next_ < rows_.size() ? rows_[next_++] : nullptr;
  return Status::OK();
}

}  // namespace partita
