// NestLoopJoinExecutor: for each outer row (child 0), re-runs the inner
// child (child 1) and emits outer ++ inner rows that satisfy the predicate;
// a LEFT join emits outer ++ NULLs for an outer row without a match.
#ifndef PARTITA_EXEC_NEST_LOOP_JOIN_EXECUTOR_H_
#define PARTITA_EXEC_NEST_LOOP_JOIN_EXECUTOR_H_

#include "exec/executor.h"

namespace partita {

class NestLoopJoinExecutor final : public Executor {
 public:
  NestLoopJoinExecutor(std::unique_ptr<Executor> outer, std::unique_ptr<Executor> inner, bool left_outer,
                       std::unique_ptr<Expression> predicate, std::vector<ValueType> inner_types);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  bool left_outer_;
  std::unique_ptr<Expression> predicate_;
  std::vector<ValueType> inner_types_;
  std::vector<Value> row_;
  bool have_outer_ = false;
  bool matched_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_NEST_LOOP_JOIN_EXECUTOR_H_
