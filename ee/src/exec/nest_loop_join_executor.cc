#include "exec/nest_loop_join_executor.h"

#include <algorithm>

#include "exec/join_row.h"

namespace partita {

NestLoopJoinExecutor::NestLoopJoinExecutor(std::unique_ptr<Executor> outer, std::unique_ptr<Executor> inner,
                                           bool left_outer, std::unique_ptr<Expression> predicate,
                                           std::vector<ValueType> inner_types)
    : Executor(Kind::kOther, outer->width() + inner->width()),
      left_outer_(left_outer),
      predicate_(std::move(predicate)),
      inner_types_(std::move(inner_types)),
      row_(width()) {
  AddChild(std::move(outer));
  AddChild(std::move(inner));
}

Status NestLoopJoinExecutor::OpenImpl() {
  have_outer_ = false;
  return child(0)->Open(ctx_);
}

Status NestLoopJoinExecutor::NextImpl(const Value** row) {
  const int outer_width = child(0)->width();
  for (;;) {
    if (!have_outer_) {
      const Value* outer;
      PARTITA_RETURN_IF_ERROR(child(0)->Next(&outer));
      if (outer == nullptr) {
        *row = nullptr;
        return Status::OK();
      }
      std::copy(outer, outer + outer_width, row_.begin());
      PARTITA_RETURN_IF_ERROR(child(1)->Open(ctx_));
      have_outer_ = true;
      matched_ = false;
    }
    const Value* inner;
    PARTITA_RETURN_IF_ERROR(child(1)->Next(&inner));
    if (inner == nullptr) {
      have_outer_ = false;
      if (left_outer_ && !matched_) {
        for (size_t i = 0; i < inner_types_.size(); ++i) row_[outer_width + i] = Value::Null(inner_types_[i]);
        *row = row_.data();
        return Status::OK();
      }
      continue;
    }
    bool passes;
    PARTITA_RETURN_IF_ERROR(
        CombineJoinRow(predicate_.get(), *ctx_, inner, child(1)->width(), outer_width, &row_, &passes));
    if (passes) {
      matched_ = true;
      *row = row_.data();
      return Status::OK();
    }
  }
}

}  // namespace partita
