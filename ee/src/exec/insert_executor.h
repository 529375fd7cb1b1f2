// InsertExecutor: inserts the child's rows (one value per table column) into
// a table; UPSERT replaces the row with the same primary key instead of
// failing. Rows from a query are collected before the first write, so
// INSERT INTO t SELECT ... FROM t sees only rows that existed before it.
// Output: one BIGINT row, the number of rows written.
#ifndef PARTITA_EXEC_INSERT_EXECUTOR_H_
#define PARTITA_EXEC_INSERT_EXECUTOR_H_

#include "exec/executor.h"
#include "storage/table.h"

namespace partita {

class InsertExecutor final : public Executor {
 public:
  // `collect_first`: the child may read `table` (not a VALUES list).
  InsertExecutor(std::unique_ptr<Executor> child, Table* table, bool upsert, bool collect_first);

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Status Write(const Value* row);

  Table* table_;
  bool upsert_;
  bool collect_first_;
  std::vector<Value> validated_;
  std::vector<const Value*> pending_;
  Value count_;
  bool done_ = false;
};

}  // namespace partita

#endif  // PARTITA_EXEC_INSERT_EXECUTOR_H_
