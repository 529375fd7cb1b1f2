// FilterExecutor: the child's rows for which the predicate is TRUE.
#ifndef PARTITA_EXEC_FILTER_EXECUTOR_H_
#define PARTITA_EXEC_FILTER_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class FilterExecutor final : public Executor {
 public:
  FilterExecutor(std::unique_ptr<Executor> child, std::unique_ptr<Expression> predicate);

 protected:
  Status OpenImpl() override { return child(0)->Open(ctx_); }
  Status NextImpl(const Value** row) override;

 private:
  std::unique_ptr<Expression> predicate_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_FILTER_EXECUTOR_H_
