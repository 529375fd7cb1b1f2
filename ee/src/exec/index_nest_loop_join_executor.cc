#include "exec/index_nest_loop_join_executor.h"

#include <algorithm>

#include "exec/join_row.h"

namespace partita {

IndexNestLoopJoinExecutor::IndexNestLoopJoinExecutor(std::unique_ptr<Executor> outer,
                                                     std::unique_ptr<IndexScanExecutor> inner, bool left_outer,
                                                     std::unique_ptr<Expression> predicate)
    : Executor(Kind::kOther, outer->width() + inner->width()),
      inner_(std::move(inner)),
      left_outer_(left_outer),
      predicate_(std::move(predicate)),
      row_(width()) {
  AddChild(std::move(outer));
}

Status IndexNestLoopJoinExecutor::OpenImpl() {
  have_outer_ = false;
  inner_->BindContext(ctx_);
  return child(0)->Open(ctx_);
}

Status IndexNestLoopJoinExecutor::NextImpl(const Value** row) {
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
      PARTITA_RETURN_IF_ERROR(inner_->Seek(row_.data()));
      have_outer_ = true;
      matched_ = false;
    }
    const Value* inner;
    PARTITA_RETURN_IF_ERROR(inner_->NextTuple(&inner));
    if (inner == nullptr) {
      have_outer_ = false;
      if (left_outer_ && !matched_) {
        const TupleSchema& schema = inner_->table()->schema();
        for (int i = 0; i < inner_->width(); ++i) row_[outer_width + i] = Value::Null(schema.column(i).type);
        *row = row_.data();
        return Status::OK();
      }
      continue;
    }
    bool passes;
    PARTITA_RETURN_IF_ERROR(
        CombineJoinRow(predicate_.get(), *ctx_, inner, inner_->width(), outer_width, &row_, &passes));
    if (passes) {
      matched_ = true;
      *row = row_.data();
      return Status::OK();
    }
  }
}

}  // namespace partita
