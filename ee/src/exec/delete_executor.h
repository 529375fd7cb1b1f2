// DeleteExecutor: deletes every row its child scan (of the same table)
// produces; targets are collected before the first delete. Output: one
// BIGINT row, the number of rows deleted.
#ifndef PARTITA_EXEC_DELETE_EXECUTOR_H_
#define PARTITA_EXEC_DELETE_EXECUTOR_H_

#include "exec/executor.h"
#include "storage/table.h"

namespace partita {

class DeleteExecutor final : public Executor {
 public:
  // REQUIRES: `scan` is a TupleSource over `table`.
  DeleteExecutor(std::unique_ptr<Executor> scan, Table* table);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Table* table_;
  std::vector<const char*> targets_;
  Value count_;
  bool done_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_DELETE_EXECUTOR_H_
