// LimitExecutor: skips OFFSET rows, then passes at most LIMIT rows. Both are
// evaluated once per execution and must be non-negative integers.
#ifndef PARTITA_EXEC_LIMIT_EXECUTOR_H_
#define PARTITA_EXEC_LIMIT_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class LimitExecutor final : public Executor {
 public:
  LimitExecutor(std::unique_ptr<Executor> child, std::unique_ptr<Expression> limit,
                std::unique_ptr<Expression> offset);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Status EvalCount(const Expression* e, const char* what, int64_t none, int64_t* out);

  std::unique_ptr<Expression> limit_expr_, offset_expr_;
  int64_t remaining_ = 0;
  int64_t to_skip_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_LIMIT_EXECUTOR_H_
