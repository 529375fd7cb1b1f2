// ReceiveExecutor: the RECEIVE plan node — every row of every dependency
// table of the batch with the node's dependency id, table after table in
// request order (a coordinator combining partitions' results). Values point
// into the request's bytes, which outlive the statement.
// Thread model: partition-confined.
#ifndef PARTITA_EXEC_RECEIVE_EXECUTOR_H_
#define PARTITA_EXEC_RECEIVE_EXECUTOR_H_

#include <vector>

#include "exec/executor.h"

namespace partita {

class ReceiveExecutor final : public Executor {
 public:
  // `types`: the node's output_schema types, which every input table must have.
  ReceiveExecutor(int32_t dependency_id, std::vector<ValueType> types);

 protected:
  // BAD_REQUEST when the batch has no table with the id, or a table's columns
  // do not match `types`.
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Status CheckSchema(const ResultTableReader& table, int ordinal) const;

  int32_t dependency_id_;
  std::vector<ValueType> types_;
  std::vector<Value> row_;
  size_t table_ = 0;  // position in ctx_->received
  int64_t next_row_ = 0;
};

}  // namespace partita

#endif  // PARTITA_EXEC_RECEIVE_EXECUTOR_H_
