// UpdateExecutor: recomputes assigned columns of every row its child scan
// (of the same table) produces. Target tuples are collected before the first
// write, so an update that moves keys never revisits a row. Output: one
// BIGINT row, the number of rows updated.
#ifndef PARTITA_EXEC_UPDATE_EXECUTOR_H_
#define PARTITA_EXEC_UPDATE_EXECUTOR_H_

#include "exec/executor.h"
#include "storage/table.h"

namespace partita {

class UpdateExecutor final : public Executor {
 public:
  struct Assignment {
    int column;
    std::unique_ptr<Expression> value;
  };
  // REQUIRES: `scan` is a TupleSource over `table`.
  UpdateExecutor(std::unique_ptr<Executor> scan, Table* table, std::vector<Assignment> assignments);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Table* table_;
  std::vector<Assignment> assignments_;
  std::vector<const char*> targets_;
  std::vector<Value> current_, next_row_, validated_;
  Value count_;
  bool done_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_UPDATE_EXECUTOR_H_
