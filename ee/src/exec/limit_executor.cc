#include "exec/limit_executor.h"

#include "errors.pb.h"

namespace partita {

LimitExecutor::LimitExecutor(std::unique_ptr<Executor> child, std::unique_ptr<Expression> limit,
                             std::unique_ptr<Expression> offset)
    : Executor(Kind::kOther, child->width()), limit_expr_(std::move(limit)), offset_expr_(std::move(offset)) {
  AddChild(std::move(child));
}

Status LimitExecutor::EvalCount(const Expression* e, const char* what, int64_t none, int64_t* out) {
  *out = none;
  if (e == nullptr) return Status::OK();
  Value v;
  PARTITA_RETURN_IF_ERROR(e->Eval(ctx_->Eval(nullptr), &v));
  if (v.is_null()) return Status::OK();
  if (!IsIntegerType(v.type()) || v.int_value() < 0) {
    return Status(proto::ERROR_CODE_BAD_PARAMETER,
                  std::string(what) + " must be a non-negative integer, got " + v.ToString());
  }
  *out = v.int_value();
  return Status::OK();
}

Status LimitExecutor::OpenImpl() {
  PARTITA_RETURN_IF_ERROR(EvalCount(limit_expr_.get(), "LIMIT", INT64_MAX, &remaining_));
  PARTITA_RETURN_IF_ERROR(EvalCount(offset_expr_.get(), "OFFSET", 0, &to_skip_));
  return child(0)->Open(ctx_);
}

Status LimitExecutor::NextImpl(const Value** row) {
  *row = nullptr;
  if (remaining_ == 0) return Status::OK();
  for (;;) {
    PARTITA_RETURN_IF_ERROR(child(0)->Next(row));
    if (*row == nullptr) return Status::OK();
    if (to_skip_ > 0) {
      --to_skip_;
      continue;
    }
    --remaining_;
    return Status::OK();
  }
}

}  // namespace partita
