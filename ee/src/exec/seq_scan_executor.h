// SeqScanExecutor: every live row of a table, optionally filtered.
#ifndef PARTITA_EXEC_SEQ_SCAN_EXECUTOR_H_
#define PARTITA_EXEC_SEQ_SCAN_EXECUTOR_H_

#include "exec/executor.h"
#include "storage/table.h"

namespace partita {

class SeqScanExecutor final : public TupleSource {
 public:
  static constexpr Kind kKind = Kind::kSeqScan;
  SeqScanExecutor(Table* table, std::unique_ptr<Expression> predicate);

  const char* current_tuple() const override { return current_; }
  Table* table() const override { return table_; }

 protected:
  Status OpenImpl() override;
  Status NextImpl(const Value** row) override;

 private:
  Table* table_;
  std::unique_ptr<Expression> predicate_;
  Table::Iterator it_;
  const char* current_ = nullptr;
  std::vector<Value> row_;
};

}  // namespace partita

#endif  // PARTITA_EXEC_SEQ_SCAN_EXECUTOR_H_
