// SetOperationExecutor: UNION ALL, UNION, INTERSECT and EXCEPT of its
// children's rows (plan.proto SetOperationNode). Rows are compared as in
// DISTINCT (NULLs equal). INTERSECT and EXCEPT read children[1] into a hash
// set when opened, then stream children[0]; UNION streams every child and
// keeps the rows seen. Kept rows are copied into the statement arena.
//
// Ownership: owns its children. Thread model: partition-confined.
#ifndef PARTITA_EXEC_SET_OPERATION_EXECUTOR_H_
#define PARTITA_EXEC_SET_OPERATION_EXECUTOR_H_

#include <memory>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "exec/executor.h"
#include "exec/row_utils.h"
#include "plan.pb.h"

namespace partita {

class SetOperationExecutor final : public Executor {
 public:
  // REQUIRES: every child has `width` columns; two children for INTERSECT
  // and EXCEPT, at least one otherwise.
  SetOperationExecutor(proto::SetOperationKind kind, int width, std::vector<std::unique_ptr<Executor>> children);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  using RowSet = absl::flat_hash_set<RowRef, RowRefHash, RowRefEq>;

  proto::SetOperationKind kind_;
  int current_ = 0;
  RowSet seen_;
  RowSet right_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_SET_OPERATION_EXECUTOR_H_
