#include "exec/hash_join_executor.h"

#include <algorithm>

#include "exec/join_row.h"

namespace partita {

HashJoinExecutor::HashJoinExecutor(std::unique_ptr<Executor> outer, std::unique_ptr<Executor> inner,
                                   bool left_outer, std::vector<std::unique_ptr<Expression>> outer_keys,
                                   std::vector<std::unique_ptr<Expression>> inner_keys,
                                   std::unique_ptr<Expression> predicate, std::vector<ValueType> inner_types)
    : Executor(Kind::kOther, outer->width() + inner->width()),
      left_outer_(left_outer),
      outer_keys_(std::move(outer_keys)),
      inner_keys_(std::move(inner_keys)),
      predicate_(std::move(predicate)),
      inner_types_(std::move(inner_types)),
      key_(outer_keys_.size()),
      row_(width()) {
  PARTITA_ASSERT(!outer_keys_.empty() && outer_keys_.size() == inner_keys_.size(),
                 "a hash join needs as many outer as inner keys, at least one");
  AddChild(std::move(outer));
  AddChild(std::move(inner));
}

Status HashJoinExecutor::EvalKeys(const std::vector<std::unique_ptr<Expression>>& keys, const Value* row,
                                  std::vector<Value>* out, bool* has_null) {
  *has_null = false;
  const EvalContext eval = ctx_->Eval(row);
  for (size_t i = 0; i < keys.size(); ++i) {
    PARTITA_RETURN_IF_ERROR(keys[i]->Eval(eval, &(*out)[i]));
    *has_null |= (*out)[i].is_null();
  }
  return Status::OK();
}

Status HashJoinExecutor::Build() {
  table_.clear();
  Executor* inner = child(1);
  PARTITA_RETURN_IF_ERROR(inner->Open(ctx_));
  const int key_width = static_cast<int>(inner_keys_.size());
  for (;;) {
    const Value* row;
    PARTITA_RETURN_IF_ERROR(inner->Next(&row));
    if (row == nullptr) return Status::OK();
    bool has_null;
    PARTITA_RETURN_IF_ERROR(EvalKeys(inner_keys_, row, &key_, &has_null));
    if (has_null) continue;  // can never be equal to anything
    if (ctx_->guard != nullptr) {
      PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(row, inner->width(), "hash join"));
      PARTITA_RETURN_IF_ERROR(ctx_->guard->ChargeRow(key_.data(), key_width, "hash join"));
    }
    const Value* key = CopyRow(key_.data(), key_width, ctx_->arena);
    table_.emplace(RowRef{key, key_width}, CopyRow(row, inner->width(), ctx_->arena));
  }
}

Status HashJoinExecutor::OpenImpl() {
  have_outer_ = false;
  PARTITA_RETURN_IF_ERROR(Build());
  return child(0)->Open(ctx_);
}

Status HashJoinExecutor::Probe() {
  bool has_null;
  PARTITA_RETURN_IF_ERROR(EvalKeys(outer_keys_, row_.data(), &key_, &has_null));
  if (has_null) {
    match_ = match_end_ = table_.end();
    return Status::OK();
  }
  auto range = table_.equal_range(RowRef{key_.data(), static_cast<int>(key_.size())});
  match_ = range.first;
  match_end_ = range.second;
  return Status::OK();
}

Status HashJoinExecutor::NextImpl(const Value** row) {
  const int outer_width = child(0)->width();
  const int inner_width = child(1)->width();
  for (;;) {
    if (!have_outer_) {
      const Value* outer;
      PARTITA_RETURN_IF_ERROR(child(0)->Next(&outer));
      if (outer == nullptr) {
        *row = nullptr;
        return Status::OK();
      }
      std::copy(outer, outer + outer_width, row_.begin());
      PARTITA_RETURN_IF_ERROR(Probe());
      have_outer_ = true;
      matched_ = false;
    }
    if (match_ == match_end_) {
      have_outer_ = false;
      if (left_outer_ && !matched_) {
        for (int i = 0; i < inner_width; ++i) row_[outer_width + i] = Value::Null(inner_types_[i]);
        *row = row_.data();
        return Status::OK();
      }
      continue;
    }
    const Value* inner = match_->second;
    ++match_;
    if (ctx_->guard != nullptr) PARTITA_RETURN_IF_ERROR(ctx_->guard->Tick());
    bool passes;
    PARTITA_RETURN_IF_ERROR(CombineJoinRow(predicate_.get(), *ctx_, inner, inner_width, outer_width, &row_, &passes));
    if (passes) {
      matched_ = true;
      *row = row_.data();
      return Status::OK();
    }
  }
}

}  // namespace partita
