// IndexNestLoopJoinExecutor: for each outer row, looks up the inner table
// through an index with a key computed from the outer row, and emits
// outer ++ inner rows satisfying the predicate (LEFT: outer ++ NULLs when
// nothing matched).
#ifndef PARTITA_EXEC_INDEX_NEST_LOOP_JOIN_EXECUTOR_H_
#define PARTITA_EXEC_INDEX_NEST_LOOP_JOIN_EXECUTOR_H_

#include "exec/executor.h"
#include "exec/index_scan_executor.h"

namespace partita {

class IndexNestLoopJoinExecutor final : public Executor {
 public:
  IndexNestLoopJoinExecutor(std::unique_ptr<Executor> outer, std::unique_ptr<IndexScanExecutor> inner,
                            bool left_outer, std::unique_ptr<Expression> predicate);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  std::unique_ptr<IndexScanExecutor> inner_;
  bool left_outer_;
  std::unique_ptr<Expression> predicate_;
  std::vector<Value> row_;
  bool have_outer_ = false;
  bool matched_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_INDEX_NEST_LOOP_JOIN_EXECUTOR_H_
