// DistinctExecutor: the child's rows without duplicates (NULLs equal), in
// first-seen order.
#ifndef PARTITA_EXEC_DISTINCT_EXECUTOR_H_
#define PARTITA_EXEC_DISTINCT_EXECUTOR_H_

#include "absl/container/flat_hash_set.h"
#include "exec/executor.h"
#include "exec/row_utils.h"

namespace partita {

class DistinctExecutor final : public Executor {
 public:
  explicit DistinctExecutor(std::unique_ptr<Executor> child);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  absl::flat_hash_set<RowRef, RowRefHash, RowRefEq> seen_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_DISTINCT_EXECUTOR_H_
